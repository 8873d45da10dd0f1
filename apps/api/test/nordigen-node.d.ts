/**
 * The part of nordigen-node 1.4.1 the tests call. Its own declarations (dist/types/) are not
 * reachable through its package.json "exports", and mark every JSDoc parameter as required, so
 * the calls its README shows would not type-check. Answers are GoCardless's JSON, read loosely.
 */
declare module 'nordigen-node' {
  type Answer = Promise<import('@sandbank/testing/fixtures').Loose>;

  interface AgreementOptions {
    institutionId: string;
    maxHistoricalDays?: number;
    accessValidForDays?: number;
    accessScope?: string[];
  }

  interface RequisitionOptions {
    redirectUrl: string;
    institutionId: string;
    agreement?: string;
    reference?: string;
    userLanguage?: string;
  }

  interface SessionOptions extends Omit<AgreementOptions, 'accessScope'> {
    redirectUrl: string;
    referenceId?: string;
    userLanguage?: string;
  }

  interface AccountApi {
    getMetadata(): Answer;
    getDetails(): Answer;
    getBalances(): Answer;
    getTransactions(options?: { dateFrom?: string; dateTo?: string; country?: string }): Answer;
  }

  export default class NordigenClient {
    constructor(options: { secretId: string; secretKey: string; baseUrl?: string });
    token: string | null;
    institution: { getInstitutions(options: { country: string }): Answer; getInstitutionById(id: string): Answer };
    agreement: { createAgreement(options: AgreementOptions): Answer; getAgreementById(id: string): Answer };
    requisition: {
      createRequisition(options: RequisitionOptions): Answer;
      getRequisitionById(id: string): Answer;
      getRequisitions(options?: { limit?: number; offset?: number }): Answer;
    };
    account(id: string): AccountApi;
    generateToken(): Promise<{ access: string; access_expires: number; refresh: string; refresh_expires: number }>;
    exchangeToken(options: { refreshToken: string }): Promise<{ access: string; access_expires: number }>;
    initSession(options: SessionOptions): Answer;
  }
}
