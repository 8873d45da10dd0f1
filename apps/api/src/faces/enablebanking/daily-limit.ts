/**
 * An ASPSP's daily limit of unattended reads (docs/faces/personalities.md, `dailyLimit`): PSD2's RTS lets a
 * third party read an account four times a day without the user, and Enable Banking passes a bank's
 * refusal on as 429 `ASPSP_RATE_LIMIT_EXCEEDED` in its error shape. Counted per session account (one
 * consent), scope and Warsaw day of the world's clock. Not counted: a read with `Psu-Ip-Address` (the
 * user is present, which is what the header tells the bank) and a transactions page after the first
 * (a `continuation_key` continues one read).
 */
import { countSessionAccountReads, type SessionAccountAccess } from '@sandbank/core';
import { quirksOf } from './aspsps.ts';
import { ebErrors } from './errors.ts';
import type { AppCall } from './input.ts';
import { localDate } from './mapping.ts';

export type ReadScope = 'details' | 'balances' | 'transactions';

export async function checkDailyLimit(call: AppCall, account: SessionAccountAccess, scope: ReadScope): Promise<void> {
  const limit = quirksOf(account.aspsp).dailyLimit;
  if (limit === undefined || call.req.get('psu-ip-address')) return;
  const count = await countSessionAccountReads(call.em, { uid: account.uid, scope, day: localDate(account.now) });
  if (count > limit) throw ebErrors.aspspRateLimit(limit, scope);
}
