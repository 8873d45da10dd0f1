/**
 * Writes the tool list of docs/guides/mcp.md from the MCP server's tools (generated from the
 * router, apps/api/src/mcp/tools.ts). apps/api/test/mcp.test.ts fails when the page and the
 * server's tools/list differ: run `pnpm mcp-tools-doc` after adding or changing a procedure.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderToolList, withToolList } from '../apps/api/src/mcp/tool-list.ts';
import { listMcpTools } from '../apps/api/src/mcp/tools.ts';

const target = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../docs/guides/mcp.md');
const list = renderToolList(listMcpTools().map((tool) => tool.definition));
writeFileSync(target, withToolList(readFileSync(target, 'utf8'), list));
console.log(`wrote ${path.relative(process.cwd(), target)}`);
