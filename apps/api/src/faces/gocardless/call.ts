/** What every endpoint of the face is handed: the dependencies, a forked EntityManager, the request and response. */
import type { Deps, GocardlessCaller } from '@sandbank/core';
import type { EntityManager } from '@sandbank/db';
import type { Request, Response } from 'express';

export interface Call {
  deps: Deps;
  em: EntityManager;
  req: Request;
  res: Response;
}

export type PublicHandler = (call: Call) => Promise<unknown>;
export type UserHandler = (call: Call & { caller: GocardlessCaller & { now: Date } }) => Promise<unknown>;
