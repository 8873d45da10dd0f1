/** An Item as the domain hands it around: the Item functions, its transactions and its notifications share it. */
export type ItemState = 'good' | 'login_required';

export interface PlaidItem {
  id: string;
  userId: string;
  accountIds: string[];
  webhookUrl: string | null;
  state: ItemState;
  createdAt: Date;
  removed: boolean;
}
