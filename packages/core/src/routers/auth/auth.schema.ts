import { dataOf, UserSchema } from '@sandbank/schemas';
import { z } from 'zod';

const EmailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .pipe(z.email('Not a valid e-mail address'))
  .meta({ example: 'jan.kowalski@example.com' });

const PasswordSchema = z.string().min(8).max(128).meta({ example: 'correct-horse-battery' });

export const CredentialsInputSchema = z.strictObject({ email: EmailSchema, password: PasswordSchema });

export const SessionSchema = z.object({
  accessToken: z
    .string()
    .meta({ description: 'A JWT for `Authorization: Bearer`', example: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIwMTkzIn0.c2lnbmF0dXJl' }),
  refreshToken: z.string().meta({ description: 'Opaque; works once', example: 'Jq3Xv0b7m2Ykq9RzT1sW4uN8aE6cD5fG0hI2jK3lM4n' }),
  tokenType: z.literal('Bearer'),
  expiresIn: z.int().meta({ description: 'Access token lifetime in seconds', example: 900 }),
});

export const AuthOutputSchema = dataOf(SessionSchema.extend({ user: UserSchema })).meta({ id: 'AuthResult' });
