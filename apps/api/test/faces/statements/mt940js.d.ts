/** The part of mt940js (which ships no types) the MT940 test reads. */
declare module 'mt940js' {
  interface Mt940Transaction {
    amount: number;
    details: string;
    reference: string;
    bankReference: string;
  }
  interface Mt940Statement {
    accountIdentification: string;
    /** The currency of the opening balance (`:60F:`). */
    currency: string;
    openingBalance: number;
    closingBalance: number;
    closingAvailableBalance: number;
    transactions: Mt940Transaction[];
  }
  export class Parser {
    parse(data: string): Mt940Statement[];
  }
}
