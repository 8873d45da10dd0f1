/**
 * What is wrong with an uploaded payment file, as the client can act on it: each problem with the
 * line of the file it is on (when known) and a message — the XSD's own complaint as libxml2 words it,
 * or the rule Sandbank adds past the schema (an IBAN's checksum, a currency's decimals). It is an
 * `AppError`, so every edge answers it in its contract: `400 VALIDATION_ERROR` (or `413
 * PAYLOAD_TOO_LARGE` when a bound refused the file) with one `details` entry per problem.
 */
import type { ErrorDetail } from '@sandbank/schemas';
import { AppError } from '../../errors.ts';

export interface PaymentFileProblem {
  /** 1-based line in the uploaded file; null when the problem is the file as a whole. */
  line: number | null;
  message: string;
  /** Where, by element names (`PmtInf[1]/CdtTrfTxInf[3]/CdtrAcct/Id/IBAN`), when Sandbank's own rules found it. */
  path?: string;
}

/** How many problems a report carries at most: a file with 10,000 bad amounts needs only the first few. */
export const MAX_PROBLEMS = 20;

export class PaymentFileError extends AppError {
  readonly problems: PaymentFileProblem[];
  /** `too-large` when a bound on size or shape refused the file before reading it, else `invalid`. */
  readonly reason: 'invalid' | 'too-large';

  constructor(message: string, problems: PaymentFileProblem[], reason: 'invalid' | 'too-large' = 'invalid') {
    const kept = problems.slice(0, MAX_PROBLEMS);
    super(reason === 'too-large' ? 'PAYLOAD_TOO_LARGE' : 'VALIDATION_ERROR', message, { details: kept.map(detailOf) });
    this.name = 'PaymentFileError';
    this.problems = kept;
    this.reason = reason;
  }
}

/** A problem as the error contract's detail: `path` says where (`line 34`, or `line 34: PmtInf[1]/CdtTrfTxInf[2]/Amt`). */
function detailOf(problem: PaymentFileProblem): ErrorDetail {
  const where = problem.line === null ? 'file' : `line ${problem.line}`;
  return { path: problem.path ? `${where}: ${problem.path}` : where, message: problem.message };
}
