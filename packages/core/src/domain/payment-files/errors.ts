/**
 * What is wrong with an uploaded payment file, as the client can act on it: each problem with the
 * line of the file it is on (when known) and a message — the XSD's own complaint as libxml2 words it,
 * or the rule Sandbank adds past the schema (an IBAN's checksum, a currency's decimals). The HTTP
 * edge turns it into a 400 with one `details` entry per problem; nothing is created.
 */
import type { ErrorDetail } from '@sandbank/schemas';

export interface PaymentFileProblem {
  /** 1-based line in the uploaded file; null when the problem is the file as a whole. */
  line: number | null;
  message: string;
  /** Where, by element names (`CdtTrfTxInf[3]/CdtrAcct/Id/IBAN`), when Sandbank's own rules found it. */
  path?: string;
}

/** How many problems a report carries at most: a file with 10,000 bad amounts needs only the first few. */
export const MAX_PROBLEMS = 20;

export class PaymentFileError extends Error {
  readonly problems: PaymentFileProblem[];
  /** `too-large` when a bound on size or shape refused the file before reading it (413 at the edge), else `invalid`. */
  readonly reason: 'invalid' | 'too-large';

  constructor(message: string, problems: PaymentFileProblem[], reason: 'invalid' | 'too-large' = 'invalid') {
    super(message);
    this.name = 'PaymentFileError';
    this.problems = problems.slice(0, MAX_PROBLEMS);
    this.reason = reason;
  }
}

/** The problems as the error contract's `details`: `path` says where (`line 34`, or `line 34: CdtTrfTxInf[2]/Amt`). */
export function problemDetails(error: PaymentFileError): ErrorDetail[] {
  return error.problems.map((problem) => {
    const where = problem.line === null ? 'file' : `line ${problem.line}`;
    return { path: problem.path ? `${where}: ${problem.path}` : where, message: problem.message };
  });
}
