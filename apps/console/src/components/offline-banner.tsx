/**
 * Says so while the browser is offline (TanStack Query's onlineManager, which follows the
 * browser's online/offline events): calls fail as NETWORK and nothing is queued to be sent later.
 */
import { onlineManager } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';

function useOnline(): boolean {
  return useSyncExternalStore(
    (notify) => onlineManager.subscribe(notify),
    () => onlineManager.isOnline(),
    () => true,
  );
}

export function OfflineBanner() {
  const online = useOnline();
  if (online) return null;
  return (
    <div className="offline-banner" role="status" data-testid="offline-banner">
      <strong>You are offline.</strong> Nothing is sent until the network is back, and nothing you tried is sent later by itself.
    </div>
  );
}
