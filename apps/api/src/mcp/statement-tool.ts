/**
 * `statements_getStatement`: a statement file of one account, as `GET /v1/accounts/:id/statement`
 * writes it (docs/faces/statements.md), for an agent to check an importer against. Statement files
 * are the statements face's, not a procedure's, so this one tool is written here: the same access
 * token, the same query schema and the same writer (faces/statements/file.ts). The file comes back
 * whole as text (UTF-8; MT940's other encodings are the REST route's), up to 1 MiB.
 */
import { AppError, authenticateAccessToken, bearerToken, toErrorBody, withFamilyShare } from '@sandbank/core';
import { z } from 'zod';
import { openStatementFile, withStatementSlot } from '../faces/statements/file.ts';
import { AccountIdSchema, StatementQuerySchema } from '../faces/statements/wire.ts';
import type { CallOutcome, McpCaller, McpTool } from './caller.ts';
import { jsonSchemaOf } from './json-schema.ts';

const MAX_TEXT_CHARS = 1024 * 1024;

const InputSchema = z.strictObject({
  id: AccountIdSchema.meta({ description: 'The account' }),
  ...StatementQuerySchema.omit({ encoding: true }).shape,
});

const OutputSchema = z.object({
  data: z.object({
    fileName: z.string().meta({ description: 'The name REST gives the file (Content-Disposition)' }),
    contentType: z.string(),
    text: z.string().meta({ description: 'The whole file' }),
  }),
});

async function getStatement(caller: McpCaller, args: Record<string, unknown> | undefined): Promise<CallOutcome> {
  const em = caller.deps.orm.em.fork();
  try {
    const token = bearerToken(caller.authorization);
    if (!token) throw new AppError('UNAUTHENTICATED', 'A bearer access token is required');
    const user = await authenticateAccessToken(em, caller.deps, token);
    const parsed = InputSchema.safeParse(args ?? {});
    if (!parsed.success) {
      const details = parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
      throw new AppError('VALIDATION_ERROR', 'The request is not valid', { details });
    }
    const { id, ...query } = parsed.data;
    // As the REST route: within the family's share and the process's statement slots.
    const value = await withFamilyShare(caller.deps, em, user.id, () =>
      withStatementSlot(caller.deps, async () => {
        const file = await openStatementFile(em, { userId: user.id, accountId: id, query: { ...query, encoding: 'utf-8' } });
        let text = '';
        try {
          for await (const chunk of file.text) {
            text += chunk;
            if (text.length > MAX_TEXT_CHARS) {
              throw new AppError('LIMIT_EXCEEDED', 'The statement is over 1 MiB: ask for a shorter period (from, to)');
            }
          }
        } finally {
          await file.close();
        }
        return { data: { fileName: file.name, contentType: file.contentType, text } };
      }),
    );
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error: toErrorBody(error, caller.requestId) };
  }
}

export const statementTool: McpTool = {
  definition: {
    name: 'statements_getStatement',
    title: 'A statement file of an account',
    description:
      'A bank statement of one account for a period (default: from the first day of this month to today in your world), in camt.053, camt.052, MT940, OFX (2 or 1) or CSV, as GET /v1/accounts/{id}/statement writes it (docs/faces/statements.md), up to 1 MiB of text.\n\nREST: GET /v1/accounts/{id}/statement',
    inputSchema: jsonSchemaOf(InputSchema, 'input'),
    outputSchema: jsonSchemaOf(OutputSchema, 'output'),
    annotations: {
      title: 'A statement file of an account',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
  },
  call: getStatement,
};
