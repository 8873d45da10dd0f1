/**
 * The face's payment routes (PIS, docs/faces/enablebanking.md#payments): `POST /payments` makes a payment
 * request the world's owner authorises on the consent page (`Sandbank Sandbox` authorises it at once),
 * executed as a section-19 payment; `GET /payments/:id` follows that payment's status; `DELETE` forgets
 * a finished one. Every payment is looked up under the caller's application, so another application's
 * (or another user's) is not found.
 */
import { deleteApplicationPayment, ebPaymentStatusOf, readApplicationPayment, startPayment } from '@sandbank/core';
import type { FaceRoute } from '../kit.ts';
import { findAspsp } from './aspsps.ts';
import { ebErrors } from './errors.ts';
import { type AppCall, parseBody, pathId } from './input.ts';
import { psuIdHash, toPaymentStart, toPaymentWire } from './mapping.ts';
import { CreatePaymentRequest, CreatePaymentResponse, GetPaymentResponse, SuccessResponse } from './wire.ts';

/** Where the owner authorises a payment of an ASPSP that does not authorise at once. */
const consentUrl = (call: AppCall, id: string) => `${call.deps.config.http.publicUrl}/console/enablebanking/payments/${id}`;

export const paymentRoutes: Record<string, FaceRoute<AppCall>> = {
  'post /payments': {
    summary:
      'Create a payment (SEPA, INST_SEPA, DOMESTIC; one credit transfer): url leads to the consent page (Sandbank Sandbox: authorised at once, straight back to redirect_url with state)',
    body: CreatePaymentRequest,
    response: CreatePaymentResponse,
    run: async (call) => {
      const body = parseBody(CreatePaymentRequest, call.req.body);
      const aspsp = findAspsp(body.aspsp.name, body.aspsp.country);
      if (!aspsp) throw ebErrors.wrongAspsp();
      if (!call.application.redirectUrls.includes(body.redirect_url)) throw ebErrors.redirectNotAllowed();
      const { request, redirect } = await startPayment(call.em, {
        application: call.application,
        aspsp,
        psuType: body.psu_type,
        state: body.state,
        redirectUrl: body.redirect_url,
        ...toPaymentStart(body),
      });
      return {
        payment_id: request.id,
        status: ebPaymentStatusOf(request).status,
        url: redirect ?? consentUrl(call, request.id),
        psu_id_hash: psuIdHash(request.userId),
      };
    },
  },
  'get /payments/:payment_id': {
    summary: 'A payment of the application: its status follows the section-19 payment it became (ISO 20022)',
    response: GetPaymentResponse,
    run: async (call) => {
      const id = pathId(call, 'payment_id', ebErrors.noPayment);
      const request = await readApplicationPayment(call.em, { applicationId: call.application.id, id });
      if (!request) throw ebErrors.noPayment();
      return toPaymentWire(request);
    },
  },
  'delete /payments/:payment_id': {
    summary: 'Delete a finished or failed payment of the application (a pending one is cancelled)',
    response: SuccessResponse,
    run: async (call) => {
      const id = pathId(call, 'payment_id', ebErrors.noPayment);
      const outcome = await deleteApplicationPayment(call.em, { applicationId: call.application.id, id });
      if (outcome === 'missing') throw ebErrors.noPayment();
      if (outcome === 'in-progress') throw ebErrors.paymentNotFinalized();
      return { message: 'OK' };
    },
  },
};
