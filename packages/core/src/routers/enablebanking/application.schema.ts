/** An Enable Banking application as the owner registers it (docs/faces/enablebanking.md). */
import { TimestampSchema } from '@sandbank/schemas';
import { z } from 'zod';
import type { Application } from '../../domain/enablebanking/applications.ts';

const RedirectUrlSchema = z
  .url({ protocol: /^https?$/, hostname: z.regexes.hostname })
  .max(2048)
  .meta({ example: 'https://budget.example/enablebanking/callback' });

const PemSchema = z.string().max(8192);

export const CreateApplicationInputSchema = z.strictObject({
  name: z.string().trim().min(1).max(100).meta({ example: 'Budget app' }),
  redirectUrls: z
    .array(RedirectUrlSchema)
    .min(1)
    .max(10)
    .meta({ description: 'Where `POST /auth` may send the user back (its `redirect_url` must be one of them)' }),
  publicKey: PemSchema.optional().meta({
    description:
      'Your RSA public key (PEM, at least 2048 bits), whose private half signs your JWTs; without one Sandbank makes a pair and answers `privateKey` once',
  }),
});

export const ApplicationSchema = z
  .object({
    id: z.uuid().meta({ description: 'The application’s id: the `kid` of the JWTs it signs' }),
    name: z.string(),
    redirectUrls: z.array(z.string()),
    publicKey: PemSchema.meta({ description: 'SPKI PEM' }),
    privateKey: PemSchema.optional().meta({
      description: 'PKCS #8 PEM, only when Sandbank made the pair, only in this answer (never stored)',
    }),
    createdAt: TimestampSchema,
  })
  .meta({ id: 'EnablebankingApplication' });

export const toApplicationView = (application: Application, privateKey?: string): z.infer<typeof ApplicationSchema> => ({
  id: application.id,
  name: application.name,
  redirectUrls: application.redirectUrls,
  publicKey: application.publicKey,
  ...(privateKey ? { privateKey } : {}),
  createdAt: application.createdAt.toISOString(),
});
