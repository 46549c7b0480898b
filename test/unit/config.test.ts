import { describe, expect, it } from 'vitest';
import { ConfigError, databaseTarget, loadConfig } from '../../src/config.js';

describe('settings', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      environment: 'staging',
      port: 8080,
      host: '127.0.0.1',
      database: { kind: 'sqlite', path: './data/topup-staging.db' },
      fastRechargeFeeEur: 50n,
      numberCheckTtlSeconds: 86_400,
      maxEntries: 100,
      rateLimitPerMinute: 1200,
      operators: ['orange', 'vodafone', 'telekom'],
      simulatorDelayMs: 3000,
      simulatorFastDelayMs: 300,
      webhookAllowPrivate: true,
      allowSimulator: false,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '9000',
      TOPUP_ENV: 'production',
      TOPUP_EUR_RON_RATE: '4.9773',
      TOPUP_VAT_RATE: '0.19',
      TOPUP_OPERATORS: 'orange,digi',
      TOPUP_RATE_LIMIT_PER_MINUTE: '0',
    });
    expect(config).toMatchObject({
      port: 9000,
      environment: 'production',
      fixedEurRonRate: 49773n,
      fixedVatRate: 19n,
      operators: ['orange', 'digi'],
      rateLimitPerMinute: 0,
      webhookAllowPrivate: false,
      database: { kind: 'sqlite', path: './data/topup-production.db' },
    });
  });

  it('names every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'eighty', TOPUP_ENV: 'prod', TOPUP_OPERATORS: 'orange,o2' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'eighty', TOPUP_ENV: 'prod', TOPUP_OPERATORS: 'orange,o2', TOPUP_VAT_RATE: '21', TOPUP_MAX_ENTRIES: '0' });
      expect.unreachable();
    } catch (error) {
      const message = (error as Error).message;
      for (const name of ['PORT', 'TOPUP_ENV', 'TOPUP_VAT_RATE', 'unknown operator "o2"', 'TOPUP_MAX_ENTRIES']) expect(message).toContain(name);
    }
  });

  it('says which values a choice allows, and refuses a port out of range', () => {
    expect(() => loadConfig({ TOPUP_ENV: 'prod' })).toThrow('TOPUP_ENV: must be one of staging, production (got "prod")');
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow('LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent');
    expect(() => loadConfig({ PORT: '99999' })).toThrow('PORT: must be a port number from 0 to 65535 (got 99999)');
    expect(loadConfig({ PORT: '65535' }).port).toBe(65_535);
  });

  it.each([
    [undefined, { kind: 'sqlite', path: './data/topup-staging.db' }],
    ['postgres://u@h/db', { kind: 'postgres', url: 'postgres://u@h/db' }],
    ['postgresql://u@h/db', { kind: 'postgres', url: 'postgresql://u@h/db' }],
    ['sqlite:/tmp/x.db', { kind: 'sqlite', path: '/tmp/x.db' }],
    ['/var/lib/topup.db', { kind: 'sqlite', path: '/var/lib/topup.db' }],
  ])('DATABASE_URL %j selects %j', (url, target) => {
    expect(databaseTarget(url, 'staging')).toEqual(target);
  });

  it('reads the upstreams in priority order and names every missing credential', () => {
    expect(loadConfig({}).upstreams).toEqual(['simulator']);
    const topup = loadConfig({ TOPUP_UPSTREAM: 'topup', TOPUP_UPSTREAM_TOPUP_URL: 'https://wholesale.example/', TOPUP_UPSTREAM_TOPUP_KEY: 'tk_live_x' });
    expect(topup).toMatchObject({ upstreams: ['topup'], upstreamTopup: { url: 'https://wholesale.example', key: 'tk_live_x' } });
    expect(() => loadConfig({ TOPUP_UPSTREAM: 'topup' })).toThrow(
      'invalid settings: TOPUP_UPSTREAM_TOPUP_URL: required when TOPUP_UPSTREAM includes topup; TOPUP_UPSTREAM_TOPUP_KEY: required when TOPUP_UPSTREAM includes topup',
    );
    expect(() => loadConfig({ TOPUP_UPSTREAM: 'ding' })).toThrow('TOPUP_UPSTREAM: unknown connector "ding" (must be simulator, or a list of: topup, dtone, reloadly)');
    expect(() => loadConfig({ TOPUP_UPSTREAM: 'dtone,topup', TOPUP_UPSTREAM_TOPUP_URL: 'http://x', TOPUP_UPSTREAM_TOPUP_KEY: 'k' })).toThrow(
      'invalid settings: DTONE_API_KEY: required when TOPUP_UPSTREAM includes dtone; DTONE_API_SECRET: required when TOPUP_UPSTREAM includes dtone',
    );
    const dtone = { TOPUP_UPSTREAM: 'dtone', DTONE_API_KEY: 'k', DTONE_API_SECRET: 's' };
    expect(loadConfig(dtone).dtone).toEqual({ baseUrl: 'https://preprod-dvs-api.dtone.com/v1', key: 'k', secret: 's' });
    expect(loadConfig({ ...dtone, TOPUP_ENV: 'production' }).dtone?.baseUrl).toBe('https://dvs-api.dtone.com/v1');
    const reloadly = { TOPUP_UPSTREAM: 'reloadly', RELOADLY_CLIENT_ID: 'id', RELOADLY_CLIENT_SECRET: 'secret' };
    expect(loadConfig(reloadly).reloadly).toEqual({ clientId: 'id', clientSecret: 'secret', authUrl: 'https://auth.reloadly.com/oauth/token', baseUrl: 'https://topups-sandbox.reloadly.com' });
    expect(loadConfig({ ...reloadly, TOPUP_ENV: 'production' }).reloadly?.baseUrl).toBe('https://topups.reloadly.com');
    expect(() => loadConfig({ TOPUP_UPSTREAM: 'reloadly' })).toThrow(/RELOADLY_CLIENT_ID: required when TOPUP_UPSTREAM includes reloadly/);
    expect(loadConfig({}).adminToken).toBeUndefined();
    expect(() => loadConfig({ TOPUP_ADMIN_TOKEN: 'short' })).toThrow(/TOPUP_ADMIN_TOKEN/);
    expect(loadConfig({ TOPUP_ADMIN_TOKEN: 'a'.repeat(32) }).adminToken).toBe('a'.repeat(32));
    expect(() => loadConfig({ TOPUP_PUBLIC_URL: 'https://topup.example' })).toThrow(/set both \(upstream callbacks\) or neither/);
    expect(() => loadConfig({ TOPUP_PUBLIC_URL: 'https://topup.example', TOPUP_UPSTREAM_CALLBACK_TOKEN: 'short' })).toThrow(/TOPUP_UPSTREAM_CALLBACK_TOKEN/);
    expect(loadConfig({ TOPUP_PUBLIC_URL: 'https://topup.example/', TOPUP_UPSTREAM_CALLBACK_TOKEN: 'a'.repeat(24) }).upstreamCallbacks).toEqual({
      publicUrl: 'https://topup.example',
      token: 'a'.repeat(24),
    });
    expect(() => loadConfig({ TOPUP_UPSTREAM: 'simulator,topup', TOPUP_UPSTREAM_TOPUP_URL: 'http://x', TOPUP_UPSTREAM_TOPUP_KEY: 'k' })).toThrow(/cannot be mixed/);
    expect(() => loadConfig({ TOPUP_UPSTREAM: 'topup,topup', TOPUP_UPSTREAM_TOPUP_URL: 'http://x', TOPUP_UPSTREAM_TOPUP_KEY: 'k' })).toThrow(/named twice/);
    expect(() => loadConfig({ TOPUP_UPSTREAM: 'topup', TOPUP_UPSTREAM_TOPUP_URL: 'ftp://x', TOPUP_UPSTREAM_TOPUP_KEY: 'k' })).toThrow(/TOPUP_UPSTREAM_TOPUP_URL/);
  });
});
