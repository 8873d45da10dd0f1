/**
 * The codes each format gives an entry, from one table (docs/faces/statements.md lists it): ISO
 * 20022 bank transaction codes (domain/family/sub-family), the MT940 `:61:` transaction type,
 * Sandbank's 3-digit operation code that opens a Polish `:86:`, and OFX `TRNTYPE`.
 */
export interface EntryCodes {
  /** ISO 20022 `BkTxCd/Domn`: domain, family, sub-family. */
  iso: { domain: string; family: string; subFamily: string };
  /** MT940 `:61:` transaction type identification (N + SWIFT code). */
  swift: string;
  /** The operation code of `:86:` and its `<00` name (Polish, as the banks write it). */
  operation: { code: string; name: string };
  ofx: 'CREDIT' | 'DEBIT' | 'POS' | 'ATM' | 'XFER' | 'DIRECTDEP';
}

interface Classified {
  amount: number;
  category: string | null;
  merchant: string | null;
  reversalOf?: string | null;
}

export function codesOf(entry: Classified): EntryCodes {
  const credit = entry.amount >= 0;
  if (entry.reversalOf) {
    return {
      iso: { domain: 'PMNT', family: credit ? 'RCDT' : 'ICDT', subFamily: 'RRTN' },
      swift: 'NTRF',
      operation: { code: '080', name: 'ZWROT / STORNO' },
      ofx: credit ? 'CREDIT' : 'DEBIT',
    };
  }
  if (credit && entry.category === 'salary') {
    return {
      iso: { domain: 'PMNT', family: 'RCDT', subFamily: 'SALA' },
      swift: 'NTRF',
      operation: { code: '030', name: 'PRZELEW PRZYCHODZĄCY' },
      ofx: 'DIRECTDEP',
    };
  }
  if (credit) {
    return {
      iso: { domain: 'PMNT', family: 'RCDT', subFamily: 'ESCT' },
      swift: 'NTRF',
      operation: { code: '030', name: 'PRZELEW PRZYCHODZĄCY' },
      ofx: 'CREDIT',
    };
  }
  if (entry.category === 'cash') {
    return {
      iso: { domain: 'PMNT', family: 'CCRD', subFamily: 'CWDL' },
      swift: 'NMSC',
      operation: { code: '074', name: 'WYPŁATA Z BANKOMATU' },
      ofx: 'ATM',
    };
  }
  if (entry.merchant) {
    return {
      iso: { domain: 'PMNT', family: 'CCRD', subFamily: 'POSD' },
      swift: 'NMSC',
      operation: { code: '073', name: 'PŁATNOŚĆ KARTĄ' },
      ofx: 'POS',
    };
  }
  return {
    iso: { domain: 'PMNT', family: 'ICDT', subFamily: 'ESCT' },
    swift: 'NTRF',
    operation: { code: '020', name: 'PRZELEW WYCHODZĄCY' },
    ofx: entry.category === 'transfer' ? 'XFER' : 'DEBIT',
  };
}
