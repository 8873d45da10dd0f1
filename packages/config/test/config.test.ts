import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/index.ts';

describe('loadConfig', () => {
  it('has a documented default for every setting', () => {
    const config = loadConfig({});
    expect(config.http).toMatchObject({ port: 3000, host: '127.0.0.1', corsOrigins: [], trustProxy: false });
    expect(config.database.url).toBeUndefined();
    expect(config.webhooks.retryScheduleSeconds).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
  });

  it('stops with a message naming each bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', WEBHOOK_ALLOW_PRIVATE_URLS: 'maybe' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'eighty', WEBHOOK_ALLOW_PRIVATE_URLS: 'maybe' });
    } catch (error) {
      expect(String(error)).toContain('PORT');
      expect(String(error)).toContain('WEBHOOK_ALLOW_PRIVATE_URLS');
    }
  });

  it('checks responses against their contract everywhere but production, unless told', () => {
    const secrets = { JWT_SECRET: 'x'.repeat(32), WEBHOOK_ENCRYPTION_KEYS: `k:${Buffer.alloc(32).toString('base64')}` };
    expect(loadConfig({}).http.checkResponses).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).http.checkResponses).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', ...secrets }).http.checkResponses).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', ...secrets, CHECK_RESPONSES: 'true' }).http.checkResponses).toBe(true);
    expect(loadConfig({ CHECK_RESPONSES: 'false' }).http.checkResponses).toBe(false);
  });

  it('requires real secrets in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET/);
  });

  it('parses lists and the trust-proxy setting', () => {
    const config = loadConfig({
      CORS_ORIGINS: 'https://a.example, https://b.example',
      TRUST_PROXY: '1',
      WEBHOOK_RETRY_SCHEDULE_SECONDS: '1,2',
    });
    expect(config.http.corsOrigins).toEqual(['https://a.example', 'https://b.example']);
    expect(config.http.trustProxy).toBe(1);
    expect(config.webhooks.retryScheduleSeconds).toEqual([1, 2]);
  });

  it('keeps attempt exchanges 7 days by default, from 1 hour to 1 year', () => {
    expect(loadConfig({}).webhooks.attemptRetentionHours).toBe(168);
    expect(loadConfig({}).worker.attemptRetentionMs).toBe(300_000);
    expect(loadConfig({ WEBHOOK_ATTEMPT_RETENTION_HOURS: '1' }).webhooks.attemptRetentionHours).toBe(1);
    expect(loadConfig({ WEBHOOK_ATTEMPT_RETENTION_HOURS: '8760' }).webhooks.attemptRetentionHours).toBe(8760);
    for (const bad of ['0', '8761', '1.5', 'week', '-1']) {
      expect(() => loadConfig({ WEBHOOK_ATTEMPT_RETENTION_HOURS: bad })).toThrow(/WEBHOOK_ATTEMPT_RETENTION_HOURS/);
    }
  });

  it('parses rate limits as points per window, with defaults', () => {
    expect(loadConfig({}).rateLimits).toMatchObject({ store: 'memory', ip: { points: 600, duration: 60 } });
    const config = loadConfig({ RATE_LIMIT_AUTH: '3/10', RATE_LIMIT_STORE: 'postgres' });
    expect(config.rateLimits).toMatchObject({ store: 'postgres', auth: { points: 3, duration: 10 } });
    expect(() => loadConfig({ RATE_LIMIT_IP: '10 per minute' })).toThrow(/RATE_LIMIT_IP/);
    expect(() => loadConfig({ RATE_LIMIT_IP: '0/60' })).toThrow(/RATE_LIMIT_IP/);
  });

  it('takes partner keys of at least 32 characters and never echoes a bad one', () => {
    const strong = 'p'.repeat(32);
    expect(loadConfig({ PARTNER_API_KEYS: ` ${strong} ,${strong}x` }).integrations.partnerApiKeys).toEqual([
      strong,
      `${strong}x`,
    ]);
    expect(() => loadConfig({ PARTNER_API_KEYS: `${strong},short-key` })).toThrow(/PARTNER_API_KEYS/);
    expect(() => loadConfig({ PARTNER_API_KEYS: 'short-key' })).not.toThrow(/short-key/);
  });
});
