/**
 * The MCP resources: the world's accounts (`sandbank://accounts/{id}`, the body of
 * `GET /v1/accounts/:id`), its recent events (`sandbank://events/recent`, the first page of
 * `GET /v1/events`) and the documentation (`sandbank://docs/{page}`, each docs/**\/*.md), so an
 * agent reads how a face or the clock behaves from the same pages a person does.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { type CallOutcome, callProcedure, type McpCaller } from './caller.ts';

/** The repository's docs folder (the sources ship beside the bundle, scripts/build-server.ts). */
const DOCS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../docs');

const ACCOUNT_URI = /^sandbank:\/\/accounts\/([^/]+)$/;
const DOC_URI = /^sandbank:\/\/docs\/(.+\.md)$/;
const RECENT_EVENTS_URI = 'sandbank://events/recent';

export const RESOURCE_TEMPLATES: ResourceTemplate[] = [
  {
    uriTemplate: 'sandbank://accounts/{id}',
    name: 'account',
    title: 'An account of your world',
    description: 'The body of GET /v1/accounts/{id}: the account with its current balance (minor units).',
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'sandbank://docs/{page}',
    name: 'docs',
    title: 'A page of the Sandbank documentation',
    description: 'A Markdown page of docs/, by its path there, e.g. sandbank://docs/faces/plaid.md.',
    mimeType: 'text/markdown',
  },
];

/** Every docs page, by its path under docs/ (e.g. `faces/plaid.md`); none when the docs are not installed. */
function docPages(dir = DOCS_DIR): string[] {
  const pages: string[] = [];
  const walk = (relative: string) => {
    let names: string[];
    try {
      names = readdirSync(path.join(dir, relative)).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const child = relative ? `${relative}/${name}` : name;
      if (statSync(path.join(dir, child)).isDirectory()) walk(child);
      else if (name.endsWith('.md')) pages.push(child);
    }
  };
  walk('');
  return pages;
}

export async function listResources(caller: McpCaller): Promise<Resource[]> {
  const accounts = await callProcedure(caller, 'accounts.listAccounts', { limit: 200 });
  const accountResources: Resource[] = accounts.ok
    ? (accounts.value as { data: { id: string; name: string }[] }).data.map((account) => ({
        uri: `sandbank://accounts/${account.id}`,
        name: `account ${account.name}`,
        title: `Account “${account.name}”`,
        mimeType: 'application/json',
      }))
    : [];
  return [
    ...accountResources,
    {
      uri: RECENT_EVENTS_URI,
      name: 'recent events',
      title: 'Recent events of your world',
      description:
        'The first page of GET /v1/events: the oldest 50 events after the start of the log; page on with the events_listEvents tool.',
      mimeType: 'application/json',
    },
    ...docPages().map((page) => ({
      uri: `sandbank://docs/${page}`,
      name: `docs/${page}`,
      title: `Docs: ${page}`,
      mimeType: 'text/markdown',
    })),
  ];
}

export type ReadOutcome = { found: true; mimeType: string; text: string } | { found: false; message: string };

export async function readResource(caller: McpCaller, uri: string): Promise<ReadOutcome> {
  const account = ACCOUNT_URI.exec(uri);
  if (account) return asJson(await callProcedure(caller, 'accounts.getAccount', { id: decodeURIComponent(account[1] ?? '') }));
  if (uri === RECENT_EVENTS_URI) return asJson(await callProcedure(caller, 'events.listEvents', {}));
  const doc = DOC_URI.exec(uri);
  if (doc) {
    const page = decodeURIComponent(doc[1] ?? '');
    if (!docPages().includes(page)) return { found: false, message: `No docs page ${page}` };
    return { found: true, mimeType: 'text/markdown', text: readFileSync(path.join(DOCS_DIR, page), 'utf8') };
  }
  return { found: false, message: `No resource ${uri}` };
}

function asJson(outcome: CallOutcome): ReadOutcome {
  if (!outcome.ok) return { found: false, message: JSON.stringify(outcome.error) };
  return { found: true, mimeType: 'application/json', text: JSON.stringify(outcome.value) };
}
