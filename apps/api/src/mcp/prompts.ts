/** The MCP prompts: a ready-made brief for setting up a world to test a budgeting app against. */
import type { GetPromptResult, Prompt } from '@modelcontextprotocol/sdk/types.js';

export const BUDGETING_PROMPT: Prompt = {
  name: 'budgeting-app-world',
  title: 'Set up a test world for a budgeting app',
  description:
    'Opens a current and a savings account, books a month of salary, rent, groceries and a pending card payment, subscribes a webhook and takes a snapshot to fork fresh worlds from.',
  arguments: [
    { name: 'webhookUrl', description: 'Where your app receives Sandbank events (optional)', required: false },
    { name: 'appName', description: 'Your budgeting app, to name the snapshot (optional)', required: false },
  ],
};

export function budgetingPrompt(args: Record<string, string> = {}): GetPromptResult {
  const app = args.appName?.trim() || 'my budgeting app';
  const webhook = args.webhookUrl?.trim()
    ? `5. Subscribe ${args.webhookUrl.trim()} to every event (webhooks_createWebhook), then send it a test event (webhooks_testWebhook) and check the delivery (webhooks_listDeliveries).`
    : '5. (No webhook URL given: skip the webhook; events_listEvents shows what a receiver would get.)';
  const text = [
    `Set up a Sandbank world to test ${app} against. Amounts are integers in minor units of the account's currency (PLN grosze: 1234 = 12.34 PLN; JPY has none, KWD three decimals). Use the Sandbank tools:`,
    '1. Read the scenario format (scenarios_getScenarioSchema, or the resource sandbank://docs/concepts/scenarios.md).',
    '2. Open a current account "Everyday" and a savings account "Savings" (accounts_createAccount).',
    '3. Book a month of history on "Everyday" (transactions_postTransaction): a salary of 850000, rent of -320000, four grocery payments between -8000 and -25000, a -4999 subscription; move 100000 to "Savings".',
    '4. Leave one card payment pending (simulations_simulateTransaction or transactions_postTransaction with status pending), then advance the clock by P2D (clock_advanceClock) and see it settle.',
    webhook,
    `6. Take a snapshot named "${app} baseline" (worlds_takeSnapshot) so each test run can fork a fresh world from it (worlds_createWorld).`,
    '7. Report the account ids, their balances (accounts_listAccounts) and the snapshot id.',
  ].join('\n');
  return { description: BUDGETING_PROMPT.description, messages: [{ role: 'user', content: { type: 'text', text } }] };
}
