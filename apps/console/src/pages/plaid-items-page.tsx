/**
 * The world's Plaid Items (docs/faces/plaid.md): what apps linked through the Plaid face, newest first,
 * with their accounts, status and webhook (linked to its deliveries); require a login again or repair it, fire
 * one of its webhooks, or remove it, as the face's sandbox calls and `/item/remove` do.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { ConfirmButton } from '../components/confirm-button.tsx';
import { CopyButton } from '../components/copy-button.tsx';
import { ErrorNote } from '../components/error-note.tsx';
import { TableHead } from '../components/list-section.tsx';
import { FireWebhookForm, ItemLoginButton } from '../components/plaid-item-actions.tsx';
import { BreakableAddress, Loading, PageHeader, Pager, StatusBadge } from '../components/ui.tsx';
import { formatDateTime } from '../lib/format.ts';
import { useTRPC } from '../lib/trpc.ts';
import { useUrlState } from '../lib/url-state.ts';

const STATUS_NAMES: Record<string, string> = {
  awaiting_exchange: 'public token not exchanged yet',
  good: 'linked',
  login_required: 'login required',
  removed: 'its token no longer works',
};

export function PlaidItemsPage() {
  const trpc = useTRPC();
  const url = useUrlState(); // the page is in the address (`?page=`)
  const page = url.page();
  const items = useQuery(trpc.plaid.listItems.queryOptions({ page, limit: 20 }));
  const remove = useMutation(trpc.plaid.removeItem.mutationOptions());
  const list = items.data?.data ?? [];
  return (
    <>
      <PageHeader
        title="Plaid items"
        subtitle="What apps linked to your world through the Plaid face, and where each link stands."
      />
      <section className="card" aria-labelledby="item-list">
        <h2 id="item-list">Items</h2>
        <ErrorNote error={items.error ?? remove.error} />
        {items.isPending ? (
          <Loading what="Plaid items" />
        ) : list.length === 0 ? (
          <div className="empty" data-testid="plaid-empty">
            <p>No app has linked an Item yet.</p>
            <p>
              An app makes one with Plaid’s SDK pointed at <code>/plaid</code> (client id: your user id; secret: one of your API
              keys): <code>/sandbox/public_token/create</code> (or <code>/link/token/create</code> first), then{' '}
              <code>/item/public_token/exchange</code> for its access token. The Item links the accounts open at that moment. See{' '}
              <code>docs/faces/plaid.md</code> for the walk-through, and{' '}
              <a href="/faces/plaid/openapi.json">the Plaid face’s OpenAPI document</a> for every endpoint it serves.
            </p>
          </div>
        ) : (
          <div className="table-wrap">
            <table aria-label="Plaid items" className="scroll-table">
              <TableHead columns={['Item', 'Status', 'Accounts', 'Webhook', 'Created (world time)']} actions />
              <tbody>
                {list.map((item) => (
                  <tr key={item.id}>
                    <td data-label="Item">
                      <span className="mono">{item.id}</span> <CopyButton text={item.id} label="Copy item id" />
                      <div className="muted">
                        {item.institutionId}; {item.consentedProducts.join(', ')}
                      </div>
                    </td>
                    <td data-label="Status">
                      <StatusBadge status={item.status === 'good' ? 'active' : item.status} /> {STATUS_NAMES[item.status]}
                      {item.error && (
                        <div>
                          <code>{item.error}</code>
                        </div>
                      )}
                      {item.removedAt && <div className="muted">since {formatDateTime(item.removedAt)}</div>}
                      <ItemLoginButton item={item} />
                    </td>
                    <td data-label="Accounts">
                      {item.accounts.length === 0 ? (
                        <span className="muted">none</span>
                      ) : (
                        <ul className="plaid-accounts">
                          {item.accounts.map((account) => (
                            <li key={account.id}>
                              {account.name} <CopyButton text={account.id} label="Copy id" name={`Copy id of ${account.name}`} />
                            </li>
                          ))}
                        </ul>
                      )}
                    </td>
                    <td data-label="Webhook">
                      {item.webhookUrl ? (
                        <code>
                          <BreakableAddress text={item.webhookUrl} />
                        </code>
                      ) : (
                        <span className="muted">none</span>
                      )}
                      {item.webhookId && (
                        <div>
                          <Link href={`/webhooks/${item.webhookId}`}>Deliveries</Link>
                        </div>
                      )}
                      <FireWebhookForm item={item} />
                    </td>
                    <td data-label="Created (world time)">{formatDateTime(item.createdAt)}</td>
                    <td className="actions">
                      {item.status !== 'removed' && (
                        <ConfirmButton
                          label="Remove"
                          question={
                            <>
                              Remove the Item {item.id}? Its access token stops working (ITEM_NOT_FOUND) and its webhook is
                              retired, as with <code>/item/remove</code>; this cannot be undone.
                            </>
                          }
                          disabled={remove.isPending}
                          onConfirm={() => remove.mutate({ id: item.id })}
                        />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager meta={items.data?.meta} onPage={(next) => url.set({ page: next }, { push: true })} label="Plaid items" />
      </section>
    </>
  );
}
