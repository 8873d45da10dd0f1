import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { openSecret, sealSecret, signatureHeaders, standardSecretProblem, verifySignature } from '../src/index.ts';

const secret = 'whsec-test-secret-ascii-only';
const body = JSON.stringify({ id: 'evt_1', type: 'transaction.created', data: { amount: -1250 } });

describe('signing', () => {
  it('is verified by the standardwebhooks library in raw-secret mode', () => {
    const headers = signatureHeaders(secret, 'evt_1', body);
    const verifier = new Webhook(secret, { format: 'raw' });
    expect(verifier.verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('sends the same values under our names and the standard ones', () => {
    const headers = signatureHeaders(secret, 'evt_1', body);
    expect(headers['X-Sandbank-Signature']).toBe(headers['webhook-signature']);
    expect(headers['X-Sandbank-Idempotency-Key']).toBe('evt_1');
    expect(headers['X-Sandbank-Signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
  });

  it('verifySignature accepts the real signature and rejects tampering, wrong secrets and old timestamps', () => {
    const headers = signatureHeaders(secret, 'evt_1', body);
    expect(verifySignature(headers, body, secret)).toBe(true);
    expect(verifySignature(headers, `${body} `, secret)).toBe(false);
    expect(verifySignature(headers, body, 'another-secret')).toBe(false);
    const old = signatureHeaders(secret, 'evt_1', body, new Date(Date.now() - 10 * 60_000));
    expect(verifySignature(old, body, secret)).toBe(false);
  });
});

describe('Standard Webhooks secrets (whsec_ + base64)', () => {
  const standard = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;

  it('signs with the key the base64 encodes, so new Webhook(secret) verifies without options', () => {
    const headers = signatureHeaders(standard, 'evt_1', body);
    expect(new Webhook(standard).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(standard, { format: 'raw' }).verify(body, headers)).toThrow('No matching signature found');
    expect(verifySignature(headers, body, standard)).toBe(true);
  });

  it('keeps the UTF-8 meaning for a whsec_ secret that is not canonical base64 (one stored before the check)', () => {
    // An underscore is not base64; 21 characters is not padded base64.
    for (const legacy of ['whsec_parent_0123456789', 'whsec_abcdefghijklmnopqrstu']) {
      const headers = signatureHeaders(legacy, 'evt_1', body);
      expect(new Webhook(legacy, { format: 'raw' }).verify(body, headers)).toEqual(JSON.parse(body));
      expect(verifySignature(headers, body, legacy)).toBe(true);
    }
  });

  it('names what is wrong with a whsec_ secret that registration refuses', () => {
    expect(standardSecretProblem(standard)).toBeNull();
    expect(standardSecretProblem('whsec-0b5d8f1e2a7c4e9b')).toBeNull();
    expect(standardSecretProblem('plain-ascii-secret-0123')).toBeNull();
    expect(standardSecretProblem('whsec_not*base64*at*all')).toMatch(/padded base64/);
    expect(standardSecretProblem('whsec_abcdefghijklmnopqrstu')).toMatch(/padded base64/);
    expect(standardSecretProblem('whsec_AAAAAAAAAAAAAAAAAAAA')).toMatch(/at least 16 bytes \(it encodes 15\)/);
  });
});

describe('secret box', () => {
  const keys = [
    { id: 'k2', key: Buffer.alloc(32, 2) },
    { id: 'k1', key: Buffer.alloc(32, 1) },
  ];

  it('round-trips and never stores the plaintext', () => {
    const sealed = sealSecret(secret, keys);
    expect(sealed.keyId).toBe('k2');
    expect(sealed.ciphertext).not.toContain(secret);
    expect(openSecret(sealed, keys)).toBe(secret);
  });

  it('opens secrets sealed with an older key after rotation, and detects tampering', () => {
    const old = sealSecret(secret, [keys[1]!]);
    expect(openSecret(old, keys)).toBe(secret);
    const raw = Buffer.from(old.ciphertext, 'base64');
    raw.writeUInt8(raw.readUInt8(raw.length - 1) ^ 1, raw.length - 1);
    expect(() => openSecret({ ...old, ciphertext: raw.toString('base64') }, keys)).toThrow();
  });
});
