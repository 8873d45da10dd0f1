/**
 * The face's routes (docs/faces/gocardless.md), keyed as GoCardless's document names them (a
 * trailing slash or not): each parses its input with the wire schemas, calls the domain, and maps
 * the result (mapping.ts). Tokens and the world's clock are the domain's; institutions are data.
 * The token endpoints are public POSTs that answer 200, as GoCardless's do; a created agreement or
 * requisition answers 201.
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
import type { Call, FaceRoute } from '../kit.ts';
import { accountRoutes } from './account-endpoints.ts';
import { gcErrors } from './errors.ts';
import { type GcCall, paramId, parse, parseQuery } from './input.ts';
import { findInstitution, type Institution, institutionsOf } from './institutions.ts';
import { toAgreementWire, toInstitutionWire, toRequisitionWire } from './mapping.ts';
import {
  AgreementResponse,
  AgreementSchema,
  CountryQuery,
  InstitutionResponse,
  InstitutionsResponse,
  PageQuerySchema,
  RequisitionResponse,
  RequisitionSchema,
  RequisitionsResponse,
  TokenNewResponse,
  TokenNewSchema,
  TokenRefreshResponse,
  TokenRefreshSchema,
} from './wire.ts';

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

export const routes: Record<string, FaceRoute<GcCall>> = {
  'post /token/new/': {
    summary: 'Access and refresh tokens for secret_id (an API key’s id) and secret_key (the key)',
    public: true,
    body: TokenNewSchema,
    response: TokenNewResponse,
    run: async ({ deps, em, req }: Call) => {
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
  },
  'post /token/refresh/': {
    summary: 'A new access token for a live refresh token',
    public: true,
    body: TokenRefreshSchema,
    response: TokenRefreshResponse,
    run: async ({ deps, em, req }: Call) => {
      const body = parse(TokenRefreshSchema, req.body);
      const tokens = await refreshGocardlessAccess(em, deps, body.refresh);
      if (!tokens) throw gcErrors.invalidToken();
      return { access: tokens.access, access_expires: tokens.accessExpires };
    },
  },
  'get /institutions/': {
    summary: 'The institutions, by country',
    query: CountryQuery,
    response: InstitutionsResponse,
    run: async ({ req }) => {
      const country = typeof req.query.country === 'string' ? req.query.country : undefined;
      if (country !== undefined && !/^[A-Za-z]{2}$/.test(country)) {
        throw gcErrors.invalidField('country', 'country must be an ISO 3166 two-letter country code');
      }
      return institutionsOf(country).map(toInstitutionWire);
    },
  },
  'get /institutions/:id/': {
    summary: 'One institution',
    response: InstitutionResponse,
    run: async ({ req }) => {
      const institution = findInstitution(String(req.params.id));
      if (!institution) throw gcErrors.notFound();
      return {
        ...toInstitutionWire(institution),
        supported_payments: {},
        supported_features: ['account_selection'],
        identification_codes: [],
      };
    },
  },
  'post /agreements/enduser/': {
    summary: 'Create an end-user agreement',
    body: AgreementSchema,
    response: AgreementResponse,
    status: 201,
    run: async ({ em, req, caller }) => {
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
  },
  'get /agreements/enduser/:id/': {
    summary: 'One end-user agreement',
    response: AgreementResponse,
    run: async (call) => {
      const agreement = await findAgreement(call.em, { userId: call.caller.userId, id: paramId(call) });
      if (!agreement) throw gcErrors.notFound();
      return toAgreementWire(agreement);
    },
  },
  'post /requisitions/': {
    summary: 'Create a requisition (status CR; its link opens the consent page)',
    body: RequisitionSchema,
    response: RequisitionResponse,
    status: 201,
    run: async (call) => {
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
  },
  'get /requisitions/': {
    summary: 'The requisitions, newest first',
    query: PageQuerySchema,
    response: RequisitionsResponse,
    run: async (call) => {
      const query = parseQuery(PageQuerySchema, call.req.query);
      const page = await listRequisitions(call.em, { userId: call.caller.userId, ...query });
      return {
        count: page.count,
        next: null,
        previous: null,
        results: page.results.map((requisition) => toRequisitionWire(requisition, linkOf(call, requisition.id))),
      };
    },
  },
  'get /requisitions/:id/': {
    summary: 'One requisition, its status on the world’s clock',
    response: RequisitionResponse,
    run: async (call) => {
      const requisition = await readRequisition(call.em, { userId: call.caller.userId, id: paramId(call) });
      if (!requisition) throw gcErrors.notFound();
      return toRequisitionWire(requisition, linkOf(call, requisition.id));
    },
  },
  ...accountRoutes,
};
