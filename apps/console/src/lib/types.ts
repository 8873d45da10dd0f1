/** Resource shapes as the console receives them, inferred from the router (no hand-written copies). */
import type { AppRouter } from '@sandbank/core';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';

type Outputs = inferRouterOutputs<AppRouter>;
type Inputs = inferRouterInputs<AppRouter>;

export type Transaction = Outputs['transactions']['listAccountTransactions']['data'][number];
export type Category = NonNullable<Transaction['category']>;
export type Currency = Transaction['currency'];
export type StatusFilter = NonNullable<Inputs['transactions']['listAccountTransactions']['status']>;
export type EventItem = Outputs['events']['listEvents']['data'][number];
export type EventType = EventItem['type'];
export type ApiKey = Outputs['integrations']['listApiKeys']['data'][number];
export type Webhook = Outputs['webhooks']['getWebhook']['data'];
export type WebhookFaults = NonNullable<Webhook['faults']>;
/** What PATCH takes as faults (defaults may be left out). */
export type WebhookFaultsInput = NonNullable<Inputs['webhooks']['patchWebhook']['faults']>;
export type Delivery = Outputs['webhooks']['listDeliveries']['data'][number];
export type DeliveryAttempt = Delivery['attempts'][number];
export type PlaidItemSummary = Outputs['plaid']['listItems']['data'][number];
export type FireableWebhookCode = Inputs['plaid']['fireItemWebhook']['code'];
export type Payment = Outputs['payments']['getPayment']['data'];
export type PaymentStatus = Payment['status'];
export type AccountItem = Outputs['accounts']['listAccounts']['data'][number];
