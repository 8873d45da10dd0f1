/**
 * A webhook's signing secret: never shown again after creation, but rotated here. The new secret
 * is made in the browser, sent once (PATCH), and shown once; the API signs with both secrets for
 * the overlap (WEBHOOK_SECRET_OVERLAP_HOURS) and says until when (`secretOverlapEndsAt`), so the
 * receiver can switch without dropping events.
 */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDateTime } from '../lib/format.ts';
import { useTRPC } from '../lib/trpc.ts';
import type { Webhook } from '../lib/types.ts';
import { randomSecret } from '../lib/webhook-secret.ts';
import { ConfirmButton } from './confirm-button.tsx';
import { ErrorNote } from './error-note.tsx';
import { ShownOnce } from './shown-once.tsx';

export function WebhookSecretCard({ webhook }: { webhook: Webhook }) {
  const trpc = useTRPC();
  const [secret, setSecret] = useState('');
  const rotate = useMutation(trpc.webhooks.patchWebhook.mutationOptions());
  const start = () => {
    const next = randomSecret();
    setSecret(next);
    rotate.mutate({ id: webhook.id, secret: next });
  };
  const { secretRotatedAt, secretOverlapEndsAt } = rotate.data?.data ?? webhook;

  return (
    <section className="card" aria-labelledby="signing-secret">
      <h2 id="signing-secret">Signing secret</h2>
      <p className="muted">
        Sandbank never shows a secret again after it is set.{' '}
        {secretRotatedAt ? (
          <>
            Last rotated {formatDateTime(secretRotatedAt)} (real time); the secret before it signs too until{' '}
            {formatDateTime(secretOverlapEndsAt)}.
          </>
        ) : (
          'Not rotated since the webhook was created.'
        )}
      </p>
      <div className="row">
        <ConfirmButton
          label="Rotate secret"
          className="secondary"
          disabled={rotate.isPending}
          question={
            <>
              Rotate the signing secret? A new one is made and shown once. The old one keeps signing too for the overlap
              (WEBHOOK_SECRET_OVERLAP_HOURS), then only the new one signs.
            </>
          }
          onConfirm={start}
        />
      </div>
      <ErrorNote error={rotate.error} />
      {rotate.isSuccess && (
        <ShownOnce
          title="Copy the new secret now: it is shown only once."
          value={secret}
          copyLabel="Copy new secret"
          testId="new-secret"
        >
          <span data-testid="overlap">
            Deliveries carry two signatures (<code>v1,&lt;new&gt; v1,&lt;old&gt;</code>): the old secret still signs until{' '}
            {formatDateTime(secretOverlapEndsAt)} (real time). Put the new secret in your receiver before then.
          </span>
        </ShownOnce>
      )}
    </section>
  );
}
