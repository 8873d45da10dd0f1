/** A new child world's credentials: shown once, right after it is made, each with a copy button. */
import type { AppRouter } from '@sandbank/core';
import type { inferRouterOutputs } from '@trpc/server';
import { formatDateTime } from '../lib/format.ts';
import { CopyButton } from './copy-button.tsx';

export type CreatedWorld = inferRouterOutputs<AppRouter>['worlds']['createWorld']['data'];

function Secret({ label, value, testId, copy }: { label: string; value: string; testId: string; copy: string }) {
  return (
    <div className="stack">
      <span>{label}</span>
      <div className="secret" data-testid={testId}>
        {value}
      </div>
      <div>
        <CopyButton text={value} label={copy} />
      </div>
    </div>
  );
}

export function WorldCredentials({ created }: { created: CreatedWorld }) {
  return (
    <div className="note success stack" role="status" data-testid="new-world">
      <strong>
        Copy these now: they are shown only once and cannot be shown again. The world {created.world.email} lives until{' '}
        {formatDateTime(created.world.expiresAt)} (real time).
      </strong>
      <Secret label="World id" value={created.world.id} testId="new-world-id" copy="Copy world id" />
      <Secret label="API key" value={created.apiKey.key} testId="new-world-key" copy="Copy API key" />
      <Secret label="Access token" value={created.accessToken} testId="new-world-access" copy="Copy access token" />
      <Secret label="Refresh token" value={created.refreshToken} testId="new-world-refresh" copy="Copy refresh token" />
      <p className="muted">
        The access token expires in {Math.round(created.expiresIn / 60)} minutes; the refresh token renews it once (
        <code>POST /v1/auth/refresh</code>). The API key works for the pull endpoint and the SimpleFIN, Plaid and GoCardless faces
        until the world is removed.
      </p>
    </div>
  );
}
