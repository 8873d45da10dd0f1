/**
 * The MCP server (docs/guides/mcp.md) with the SDK's own client over both transports: streamable
 * HTTP to `POST /mcp`, and stdio to the real `sandbank mcp` process relaying to it. Each group of
 * tools answers what the REST API answers for the same thing; bad input is a tool error carrying
 * our code and trace id; another user's ids are not found; resources and the prompt read back.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderToolList, withToolList } from '../src/mcp/tool-list.ts';
import { cliEnv, sandbank } from './cli-process.ts';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';
import { callTool, httpClient, type McpTransportName, stdioClient } from './mcp-clients.ts';
import { plaidClientOf } from './plaid-calls.ts';

let app: TestApp;
let configDir: string;
let owner: TestUser;
let stranger: TestUser;
let strangerAccountId: string;
const clients = new Map<McpTransportName, Client>();

beforeAll(async () => {
  app = await startTestApp();
  configDir = await mkdtemp(path.join(os.tmpdir(), 'sandbank-mcp-'));
  [owner, stranger] = await Promise.all([app.createUser(), app.createUser()]);
  const env = cliEnv(configDir);
  const login = await sandbank(['login', '--api-url', app.url, '--email', owner.email, '--password-stdin'], env, owner.password);
  expect(login.code, login.stderr).toBe(0);
  clients.set('http', await httpClient(app.url, owner.accessToken));
  clients.set('stdio', await stdioClient(env));
  const opened = await app.call('POST', '/v1/accounts', { token: stranger.accessToken, body: { name: 'Not yours' } });
  strangerAccountId = opened.body.data.id;
});

afterAll(async () => {
  await Promise.all([...clients.values()].map((client) => client.close()));
  await app?.close();
  await rm(configDir, { recursive: true, force: true });
});

const rest = async (method: string, url: string, body?: unknown) => {
  const res = await app.call(method, url, { token: owner.accessToken, ...(body === undefined ? {} : { body }) });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body;
};

async function ok(client: Client, name: string, args: Record<string, unknown> = {}) {
  const outcome = await callTool(client, name, args);
  if (!outcome.ok) throw new Error(`${name}: ${JSON.stringify(outcome.error)}`);
  return outcome.value as { data: Record<string, unknown> & { id: string } } & Record<string, unknown>;
}

describe('POST /mcp without credentials', () => {
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
  };
  const post = (headers: Record<string, string>) =>
    fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(initialize),
    });

  it('is 401 in our error contract, with no token, a bad token or a revoked API key', async () => {
    const refused: Record<string, string>[] = [{}, { authorization: 'Bearer nope' }, { authorization: 'Bearer sbk_not_a_key' }];
    for (const headers of refused) {
      const res = await post(headers);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'UNAUTHENTICATED', traceId: expect.any(String) });
    }
  });

  it('takes an access token or an API key, and GET is 405 (no sessions)', async () => {
    expect((await post({ authorization: `Bearer ${owner.accessToken}` })).status).toBe(200);
    const key = await rest('POST', '/v1/api-keys', { name: 'mcp' });
    expect((await post({ authorization: `Bearer ${key.data.key}` })).status).toBe(200);
    const get = await fetch(`${app.url}/mcp`, { headers: { authorization: `Bearer ${owner.accessToken}` } });
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
  });
});

describe('rate limits', () => {
  it('counts each MCP request against the per-IP limit, refused in our contract', async () => {
    const limited = await startTestApp({ RATE_LIMIT_IP: '3/60' });
    try {
      const user = await limited.createUser();
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 4; i += 1) {
        last = await fetch(`${limited.url}/mcp`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            authorization: `Bearer ${user.accessToken}`,
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/list' }),
        });
        statuses.push(last.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(await last?.json()).toMatchObject({ code: 'RATE_LIMITED' });
    } finally {
      await limited.close();
    }
  });
});

describe('with an API key', () => {
  it('reaches what the key reaches on REST, over HTTP and through SANDBANK_API_KEY on stdio', async () => {
    const key: string = (await rest('POST', '/v1/api-keys', { name: 'mcp-key' })).data.key;
    const keyDir = await mkdtemp(path.join(os.tmpdir(), 'sandbank-mcp-key-'));
    const withKey = [
      await httpClient(app.url, key),
      await stdioClient(cliEnv(keyDir, { SANDBANK_API_KEY: key }), ['--api-url', app.url]),
    ];
    for (const client of withKey) {
      expect(await ok(client, 'worlds_listSnapshots')).toEqual(await rest('GET', '/v1/sandbox/snapshots'));
      const refused = await callTool(client, 'accounts_listAccounts');
      const restRefused = await app.call('GET', '/v1/accounts', { token: key });
      expect([restRefused.status, refused]).toMatchObject([401, { ok: false, error: { code: 'UNAUTHENTICATED' } }]);
      await client.close();
    }
    await rm(keyDir, { recursive: true, force: true });
  });
});

describe.each(['http', 'stdio'] as const)('over %s', (transport) => {
  const client = () => {
    const found = clients.get(transport);
    if (!found) throw new Error(`no ${transport} client`);
    return found;
  };

  it('lists the tools of every group with input and output schemas and honest annotations', async () => {
    const { tools } = await client().listTools();
    const names = tools.map((tool) => tool.name);
    for (const name of [
      'accounts_createAccount',
      'simulations_simulateTransaction',
      'transactions_postTransaction',
      'transactions_voidTransaction',
      'transactions_reverseTransaction',
      'clock_advanceClock',
      'scenarios_applyScenario',
      'worlds_takeSnapshot',
      'worlds_createWorld',
      'events_listEvents',
      'webhooks_testWebhook',
      'webhooks_listDeliveries',
      'webhooks_redeliver',
      'webhooks_patchWebhook',
      'plaid_fireItemWebhook',
      'plaid_createPublicToken',
      'gocardless_decideRequisition',
      'simplefin_createSetupToken',
      'statements_getStatement',
    ]) {
      expect(names).toContain(name);
    }
    expect(names.filter((name) => name.startsWith('auth_') || name.startsWith('integrations_'))).toEqual([]);
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const tool of tools) {
      expect([tool.name, tool.inputSchema.type, tool.outputSchema?.type]).toEqual([tool.name, 'object', 'object']);
    }
    expect(byName.get('accounts_getAccount')?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName.get('transactions_reverseTransaction')?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
    expect(byName.get('webhooks_deleteWebhook')?.annotations).toMatchObject({ destructiveHint: true });
    expect(byName.get('accounts_createAccount')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(byName.get('accounts_createAccount')?.inputSchema).toMatchObject({ required: ['name'] });
  });

  it('is the tool list docs/guides/mcp.md shows (run `pnpm mcp-tools-doc` after changing a procedure)', async () => {
    const page = readFileSync(new URL('../../../docs/guides/mcp.md', import.meta.url), 'utf8');
    const { tools } = await client().listTools();
    expect(page).toBe(withToolList(page, renderToolList(tools)));
  });

  it('accounts, simulate, post/void/reverse: the same as REST', async () => {
    const c = client();
    const account = await ok(c, 'accounts_createAccount', { name: `MCP ${transport}` });
    const id = account.data.id;
    await ok(c, 'simulations_simulateTransaction', { accountId: id, amount: 100_00, description: 'Salary' });
    const pending = await ok(c, 'simulations_simulateTransaction', { accountId: id, amount: -12_50, status: 'pending' });
    const pendingId = (pending.data.transaction as { id: string }).id;
    const voided = await ok(c, 'transactions_voidTransaction', { id: pendingId });
    expect(voided).toEqual({
      ...voided,
      data: expect.objectContaining({ transaction: expect.objectContaining({ status: 'voided' }) }),
    });
    const held = await ok(c, 'simulations_simulateTransaction', { accountId: id, amount: -20_00, status: 'pending' });
    const heldId = (held.data.transaction as { id: string }).id;
    await ok(c, 'transactions_postTransaction', { id: heldId });
    const reversal = await ok(c, 'transactions_reverseTransaction', { id: heldId, amount: 5_00 });
    expect(reversal.data.transaction).toMatchObject({ amount: 5_00, reversalOf: heldId });

    expect((await ok(c, 'accounts_getAccount', { id })).data).toMatchObject({ balance: 100_00 - 20_00 + 5_00 });
    expect(await ok(c, 'accounts_getAccount', { id })).toEqual(await rest('GET', `/v1/accounts/${id}`));
    expect(await ok(c, 'transactions_getTransaction', { id: heldId })).toEqual(await rest('GET', `/v1/transactions/${heldId}`));
    expect(await ok(c, 'transactions_listAccountTransactions', { id })).toEqual(
      await rest('GET', `/v1/accounts/${id}/transactions`),
    );
    expect(await ok(c, 'accounts_listAccounts')).toEqual(await rest('GET', '/v1/accounts'));
  });

  it('clock, scenarios, snapshots and forks: the same as REST', async () => {
    const c = client();
    // The clock runs on between the two reads: the same offset, the same hour.
    const clock = await ok(c, 'clock_getClock');
    expect(clock.data.offsetMs).toBe((await rest('GET', '/v1/clock')).data.offsetMs);
    const advanced = await ok(c, 'clock_advanceClock', { by: 'PT1H' });
    const after = await rest('GET', '/v1/clock');
    expect(after.data.offsetMs).toBeGreaterThan(Number(clock.data.offsetMs) + 3_590_000);
    expect(Date.parse(after.data.now) - Date.parse(String(advanced.data.now))).toBeLessThan(60_000);
    expect(await ok(c, 'scenarios_getScenarioSchema')).toEqual(await rest('GET', '/v1/scenarios/schema'));
    const snapshot = await ok(c, 'worlds_takeSnapshot', { name: `mcp ${transport}` });
    expect(await ok(c, 'worlds_getSnapshot', { id: snapshot.data.id })).toEqual(
      await rest('GET', `/v1/sandbox/snapshots/${snapshot.data.id}`),
    );
    const world = await ok(c, 'worlds_createWorld', { snapshotId: snapshot.data.id, ttl: 'PT1H' });
    const created = world.data as unknown as { world: { id: string }; accessToken: string };
    expect(await ok(c, 'worlds_getWorld', { id: created.world.id })).toEqual(await rest('GET', `/v1/worlds/${created.world.id}`));
    expect(await ok(c, 'worlds_listWorlds')).toEqual(await rest('GET', '/v1/worlds'));
    // The child world's own token drives that world alone: its accounts, not the parent's.
    const child = await httpClient(app.url, created.accessToken);
    const childAccounts = await ok(child, 'accounts_listAccounts');
    expect(childAccounts).toEqual((await app.call('GET', '/v1/accounts', { token: created.accessToken })).body);
    const ids = (accounts: unknown) => (accounts as { id: string }[]).map((account) => account.id);
    const parentIds = ids((await rest('GET', '/v1/accounts')).data);
    expect(ids(childAccounts.data).filter((id) => parentIds.includes(id))).toEqual([]);
    // A scenario exported from this world, applied to the child by the child's own token.
    const exported = await ok(c, 'scenarios_exportScenario');
    const restExport = await rest('GET', '/v1/scenarios/export');
    // `asOf` is the world's now at each export; the rest is the world, the same both ways.
    expect({ ...exported.data, asOf: null }).toEqual({ ...restExport.data, asOf: null });
    const applied = await ok(child, 'scenarios_applyScenario', { scenario: exported.data, reset: true });
    const names = (accounts: unknown) => (accounts as { name: string }[]).map((account) => account.name).sort();
    expect(names(applied.data.accounts)).toEqual(names((await rest('GET', '/v1/accounts')).data));
    await child.close();
  });

  it('events and webhooks (test, deliveries, redeliver, faults): the same as REST', async () => {
    const c = client();
    const webhook = await ok(c, 'webhooks_createWebhook', {
      url: 'http://127.0.0.1:9/hooks',
      secret: 'whsec-mcp-test-secret',
      events: ['transaction.created'],
      clientId: `mcp-${transport}`,
    });
    const hookId = webhook.data.id;
    await ok(c, 'webhooks_testWebhook', { id: hookId });
    const deliveries = await ok(c, 'webhooks_listDeliveries', { id: hookId });
    expect(deliveries).toEqual(await rest('GET', `/v1/webhooks/${hookId}/deliveries`));
    const [delivery] = deliveries.data as unknown as { id: string }[];
    if (!delivery) throw new Error('no delivery');
    const redelivered = await callTool(c, 'webhooks_redeliver', { id: hookId, deliveryId: delivery.id });
    const restRedeliver = await app.call('POST', `/v1/webhooks/${hookId}/deliveries/${delivery.id}/redeliver`, {
      token: owner.accessToken,
      body: {},
    });
    // A delivery still pending is not redelivered: the tool refuses with the same code as REST.
    if (redelivered.ok) expect(restRedeliver.status).toBeLessThan(300);
    else expect(redelivered.error.code).toBe(restRedeliver.body.code);
    const faulted = await ok(c, 'webhooks_patchWebhook', { id: hookId, faults: { seed: 'mcp', failure: { rate: 0.5 } } });
    expect(faulted).toEqual(await rest('GET', `/v1/webhooks/${hookId}`));
    expect(await ok(c, 'events_listEvents', { limit: 200 })).toEqual(await rest('GET', '/v1/events?limit=200'));
  });

  it('Plaid items, GoCardless consents and a SimpleFIN setup token: the same as REST', async () => {
    const c = client();
    // A public token from the tool is one the app under test exchanges with Plaid's own client.
    const created = await ok(c, 'plaid_createPublicToken');
    const { publicToken, itemId } = created.data as unknown as { publicToken: string; itemId: string };
    const plaid = await plaidClientOf(app, owner);
    const exchanged = await plaid.itemPublicTokenExchange({ public_token: publicToken });
    expect(exchanged.data.item_id).toBe(itemId);
    const items = await ok(c, 'plaid_listItems');
    expect(items).toEqual(await rest('GET', '/v1/plaid/items'));
    expect((items.data as unknown as { id: string }[]).map((item) => item.id)).toContain(itemId);
    expect(await ok(c, 'gocardless_listRequisitions')).toEqual(await rest('GET', '/v1/gocardless/requisitions'));
    const token = await ok(c, 'simplefin_createSetupToken');
    expect(token.data).toMatchObject({ setupToken: expect.any(String) });
  });

  it('statements: the same file as REST, in each text format; bad format and another world refused', async () => {
    const c = client();
    const account = await ok(c, 'accounts_createAccount', { name: `Statement ${transport}` });
    const id = account.data.id;
    await ok(c, 'simulations_simulateTransaction', { accountId: id, amount: 1_234_56, description: 'Salary' });
    await ok(c, 'simulations_simulateTransaction', { accountId: id, amount: -99_99, description: 'Groceries' });
    for (const format of ['camt.053', 'mt940', 'ofx', 'csv']) {
      const file = await ok(c, 'statements_getStatement', { id, format });
      const res = await fetch(`${app.url}/v1/accounts/${id}/statement?format=${format}`, {
        headers: { authorization: `Bearer ${owner.accessToken}` },
      });
      expect(res.status).toBe(200);
      const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1];
      // The moment each file was written is the only thing that differs.
      const written = (text: unknown) => String(text).replace(/<(CreDtTm|DTSERVER)>[^<\n]*/g, '<$1>…');
      expect({ ...file.data, text: written(file.data.text) }).toEqual({
        fileName: name,
        contentType: res.headers.get('content-type'),
        text: written(await res.text()),
      });
    }
    const bad = await callTool(c, 'statements_getStatement', { id, format: 'pdf' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'VALIDATION_ERROR', details: [{ path: 'format' }] } });
    const foreign = await callTool(c, 'statements_getStatement', { id: strangerAccountId, format: 'csv' });
    expect(foreign).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  it('answers bad input as a tool error with our code and trace id, and changes nothing', async () => {
    const c = client();
    const before = await rest('GET', '/v1/accounts');
    const refused = await callTool(c, 'accounts_createAccount', { name: 42 });
    expect(refused).toMatchObject({ ok: false, error: { code: 'VALIDATION_ERROR', traceId: expect.any(String) } });
    expect(await rest('GET', '/v1/accounts')).toEqual(before);
    const unknown = await callTool(c, 'transactions_voidTransaction', { id: 'not-a-uuid' });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'VALIDATION_ERROR' } });
  });

  it("does not find another user's ids, as a tool or as a resource", async () => {
    const c = client();
    const refused = await callTool(c, 'accounts_getAccount', { id: strangerAccountId });
    expect(refused).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    const simulated = await callTool(c, 'simulations_simulateTransaction', { accountId: strangerAccountId, amount: 1_00 });
    expect(simulated).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    await expect(c.readResource({ uri: `sandbank://accounts/${strangerAccountId}` })).rejects.toThrow(/NOT_FOUND/);
    const stranger = await app.call('GET', `/v1/accounts/${strangerAccountId}`, { token: owner.accessToken });
    expect(stranger.status).toBe(404);
  });

  it("reads the world's accounts, recent events and the docs as resources, and offers the budgeting prompt", async () => {
    const c = client();
    const { resources } = await c.listResources();
    const uris = resources.map((resource) => resource.uri);
    const { data: accounts } = await rest('GET', '/v1/accounts');
    for (const account of accounts as { id: string }[]) expect(uris).toContain(`sandbank://accounts/${account.id}`);
    expect(uris).toContain('sandbank://docs/faces/plaid.md');
    expect(uris).toContain('sandbank://docs/guides/mcp.md');
    const first = (accounts as { id: string }[])[0];
    if (!first) throw new Error('no account');
    const read = await c.readResource({ uri: `sandbank://accounts/${first.id}` });
    const [content] = read.contents;
    expect(content && 'text' in content ? JSON.parse(content.text) : null).toEqual(await rest('GET', `/v1/accounts/${first.id}`));
    const events = (await c.readResource({ uri: 'sandbank://events/recent' })).contents[0];
    expect(events && 'text' in events ? JSON.parse(events.text) : null).toEqual(await rest('GET', '/v1/events'));
    const doc = (await c.readResource({ uri: 'sandbank://docs/README.md' })).contents[0];
    expect(doc && 'text' in doc ? doc.text : '').toContain('# ');
    await expect(c.readResource({ uri: 'sandbank://docs/../package.json' })).rejects.toThrow();
    const { resourceTemplates } = await c.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      'sandbank://accounts/{id}',
      'sandbank://docs/{page}',
    ]);
    const { prompts } = await c.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(['budgeting-app-world']);
    const prompt = await c.getPrompt({ name: 'budgeting-app-world', arguments: { webhookUrl: 'https://example.com/hook' } });
    const message = prompt.messages[0]?.content;
    expect(message?.type === 'text' ? message.text : '').toContain('https://example.com/hook');
  });
});
