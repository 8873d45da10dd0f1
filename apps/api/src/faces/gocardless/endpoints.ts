/**
 * The face's endpoints: each parses its input with the wire schemas, calls the domain, and maps
 * the result (mapping.ts). Tokens and the world's clock are the domain's; institutions are data.
 */
import {
  createAgreement,
  createRequisition,
  findAgreement,
  issueGocardlessTokens,
  listRequisitions,
  readRequisition,
  refreshGocardlessAccess,
} from '@sandbank/core';
import { accountEndpoints } from './account-endpoints.ts';
import type { Call, PublicHandler, UserHandler } from './call.ts';
import { gcErrors } from './errors.ts';
import { paramId, parse, parseQuery } from './input.ts';
import { findInstitution, type Institution, institutionsOf } from './institutions.ts';
import { toAgreementWire, toInstitutionWire, toRequisitionWire } from './mapping.ts';
import { AgreementSchema, PageQuerySchema, RequisitionSchema, TokenNewSchema, TokenRefreshSchema } from './wire.ts';

export { accountEndpoints };

const knownInstitution = (id: string): Institution => {
  const institution = findInstitution(id);
  if (!institution) throw gcErrors.unknownInstitution(id);
  return institution;
};

/** The console page where the world's owner decides a requisition. */
const linkOf = (call: Call, id: string) => `${call.deps.config.http.publicUrl}/console/gocardless/requisitions/${id}`;

/** Days and scope within what the institution allows (GoCardless refuses more). */
function checkAgreementBounds(institution: Institution, days: { maxHistoricalDays: number; accessValidForDays: number }) {
  if (days.maxHistoricalDays > institution.transactionTotalDays) {
    throw gcErrors.invalidBodyField(
      'max_historical_days',
      `max_historical_days must be > 0 and <= ${institution.transactionTotalDays} for ${institution.id}`,
    );
  }
  if (days.accessValidForDays > institution.maxAccessValidForDays) {
    throw gcErrors.invalidBodyField(
      'access_valid_for_days',
      `access_valid_for_days must be > 0 and <= ${institution.maxAccessValidForDays} for ${institution.id}`,
    );
  }
}

export const publicEndpoints: Record<string, PublicHandler> = {
  '/token/new/': async ({ deps, em, req }) => {
    const body = parse(TokenNewSchema, req.body);
    const tokens = await issueGocardlessTokens(em, deps, { secretId: body.secret_id, secretKey: body.secret_key });
    if (!tokens) throw gcErrors.authenticationFailed();
    return {
      access: tokens.access,
      access_expires: tokens.accessExpires,
      refresh: tokens.refresh,
      refresh_expires: tokens.refreshExpires,
    };
  },
  '/token/refresh/': async ({ deps, em, req }) => {
    const body = parse(TokenRefreshSchema, req.body);
    const tokens = await refreshGocardlessAccess(em, deps, body.refresh);
    if (!tokens) throw gcErrors.invalidToken();
    return { access: tokens.access, access_expires: tokens.accessExpires };
  },
};

export const userEndpoints: Record<string, UserHandler> = {
  'get /institutions/': async ({ req }) => {
    const country = typeof req.query.country === 'string' ? req.query.country : undefined;
    if (country !== undefined && !/^[A-Za-z]{2}$/.test(country)) {
      throw gcErrors.invalidField('country', 'country must be an ISO 3166 two-letter country code');
    }
    return institutionsOf(country).map(toInstitutionWire);
  },
  'get /institutions/:id/': async ({ req }) => {
    const institution = findInstitution(String(req.params.id));
    if (!institution) throw gcErrors.notFound();
    return {
      ...toInstitutionWire(institution),
      supported_payments: {},
      supported_features: ['account_selection'],
      identification_codes: [],
    };
  },
  'post /agreements/enduser/': async ({ em, req, caller }) => {
    const body = parse(AgreementSchema, req.body);
    const institution = knownInstitution(body.institution_id);
    const days = { maxHistoricalDays: body.max_historical_days, accessValidForDays: body.access_valid_for_days };
    checkAgreementBounds(institution, days);
    const agreement = await createAgreement(em, {
      userId: caller.userId,
      institutionId: institution.id,
      ...days,
      accessScope: body.access_scope,
    });
    return toAgreementWire(agreement);
  },
  'get /agreements/enduser/:id/': async (call) => {
    const agreement = await findAgreement(call.em, { userId: call.caller.userId, id: paramId(call) });
    if (!agreement) throw gcErrors.notFound();
    return toAgreementWire(agreement);
  },
  'post /requisitions/': async (call) => {
    const body = parse(RequisitionSchema, call.req.body);
    const institution = knownInstitution(body.institution_id);
    const defaults = {
      maxHistoricalDays: 90,
      accessValidForDays: 90,
      accessScope: ['balances', 'details', 'transactions'] as const,
    };
    const requisition = await createRequisition(call.em, {
      userId: call.caller.userId,
      apiKeyId: call.caller.keyId,
      institutionId: institution.id,
      agreement: body.agreement ? { id: body.agreement } : { ...defaults, accessScope: [...defaults.accessScope] },
      redirect: body.redirect,
      reference: body.reference ?? null,
      userLanguage: body.user_language ?? 'EN',
      linkAtOnce: institution.linksAtOnce,
    });
    return toRequisitionWire(requisition, linkOf(call, requisition.id));
  },
  'get /requisitions/': async (call) => {
    const query = parseQuery(PageQuerySchema, call.req.query);
    const page = await listRequisitions(call.em, { userId: call.caller.userId, ...query });
    return {
      count: page.count,
      next: null,
      previous: null,
      results: page.results.map((requisition) => toRequisitionWire(requisition, linkOf(call, requisition.id))),
    };
  },
  'get /requisitions/:id/': async (call) => {
    const requisition = await readRequisition(call.em, { userId: call.caller.userId, id: paramId(call) });
    if (!requisition) throw gcErrors.notFound();
    return toRequisitionWire(requisition, linkOf(call, requisition.id));
  },
};
