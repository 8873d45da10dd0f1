/**
 * Responses against their contract (packages/core/src/response-check.ts): parsed and compared where
 * CHECK_RESPONSES is on, sent untouched where it is off — and in both cases the procedure's own object.
 */
import { type Context, useConfiguredResponseChecks } from '@sandbank/core';
import { initTRPC } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const t = initTRPC.context<Context>().create();
const Thing = z.object({ id: z.string(), count: z.int() });
const things = t.router({
  exact: t.procedure.output(Thing).query(() => ({ count: 1, id: 'a' })),
  extraField: t.procedure.output(Thing).query(() => ({ id: 'a', count: 1, secret: 'never sent' })),
  wrongType: t.procedure.output(Thing).query(() => ({ id: 1, count: 1 }) as never),
  defaulted: t.procedure
    .output(z.object({ id: z.string(), tag: z.string().default('none') }))
    .query(() => ({ id: 'a' }) as never),
});
useConfiguredResponseChecks(things._def.procedures);

const caller = (checkResponses: boolean) =>
  things.createCaller({ deps: { config: { http: { checkResponses } } } } as unknown as Context);

describe('responses and their contract', () => {
  it('with checks on, answers a response that is exactly its contract, as the procedure built it', async () => {
    expect(await caller(true).exact()).toEqual({ count: 1, id: 'a' });
    expect(Object.keys(await caller(true).exact())).toEqual(['count', 'id']);
  });

  it('with checks on, fails a field the contract does not name, a wrong type and a value the schema would fill in', async () => {
    await expect(caller(true).extraField()).rejects.toMatchObject({
      code: 'INTERNAL_SERVER_ERROR',
      message: expect.stringMatching(/not exactly its contract at response\.secret:/),
    });
    await expect(caller(true).wrongType()).rejects.toMatchObject({
      code: 'INTERNAL_SERVER_ERROR',
      message: expect.stringMatching(/breaks its contract/),
    });
    await expect(caller(true).defaulted()).rejects.toMatchObject({ code: 'INTERNAL_SERVER_ERROR' });
  });

  it('with checks off, sends what the procedure returned without parsing it', async () => {
    expect(await caller(false).extraField()).toEqual({ id: 'a', count: 1, secret: 'never sent' });
    expect(await caller(false).wrongType()).toEqual({ id: 1, count: 1 });
  });
});
