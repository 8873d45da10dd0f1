/**
 * `POST /mcp`: the MCP server over streamable HTTP, stateless (a server and a transport per
 * request, no session to keep), JSON answers. The bearer is the same as REST's: an access token or
 * a user's API key; without a valid one the answer is 401 in our error contract before any MCP
 * message is read. GET and DELETE (a server-sent stream, a session's end) are 405: there is no session.
 */

import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AppError, authenticateWorldOwner, bearerToken, type Deps, toErrorBody, withTraceId } from '@sandbank/core';
import { type Request, type Response, Router } from 'express';
import { sendError } from '../http/errors.ts';
import type { InFlight } from '../http/in-flight.ts';
import { createMcpServer } from './server.ts';
import { listMcpTools } from './tools.ts';

const MCP_PATH = '/mcp';

export function mcpRouter(deps: Deps, inFlight: InFlight): Router {
  const tools = listMcpTools();
  const router = Router();

  router.post(MCP_PATH, (req: Request, res: Response) => {
    inFlight
      .track(
        withTraceId(req.id, async () => {
          try {
            await authenticateWorldOwner(deps.orm.em.fork(), deps, bearerToken(req.headers.authorization));
          } catch (error) {
            sendError(res, toErrorBody(error, req.id));
            return;
          }
          const caller = { deps, requestId: req.id, authorization: req.headers.authorization, ip: req.ip ?? '', log: req.log };
          const server = createMcpServer(tools, caller);
          const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
          res.on('close', () => {
            void transport.close();
            void server.close();
          });
          await server.connect(transport);
          await transport.handleRequest(req, res, req.body);
        }),
      )
      .catch((error: unknown) => {
        req.log.error({ err: error }, 'MCP request failed');
        sendError(res, toErrorBody(error, req.id));
      });
  });

  router.all(MCP_PATH, (req: Request, res: Response) => {
    const error = new AppError(
      'METHOD_NOT_ALLOWED',
      `${req.method} is not allowed on ${MCP_PATH}; use POST (the server keeps no session)`,
    );
    sendError(res, toErrorBody(error, req.id), { Allow: 'POST' });
  });
  return router;
}
