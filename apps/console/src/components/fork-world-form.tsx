/**
 * Fork a disposable child world from a snapshot (fast: rows copied in the database) or a shipped
 * example scenario, with a time to live; its credentials are shown once below the form.
 */
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import family from '../../../../examples/scenarios/family.json' with { type: 'json' };
import freelancer from '../../../../examples/scenarios/freelancer.json' with { type: 'json' };
import student from '../../../../examples/scenarios/student.json' with { type: 'json' };
import { useTRPC } from '../lib/trpc.ts';
import { ErrorNote } from './error-note.tsx';
import { WorldCredentials } from './world-credentials.tsx';

const EXAMPLES: Record<string, unknown> = { family, student, freelancer };
const TTLS = [
  { value: 'PT15M', label: '15 minutes' },
  { value: 'PT1H', label: '1 hour' },
  { value: 'PT6H', label: '6 hours' },
  { value: 'P1D', label: '1 day' },
  { value: 'P7D', label: '7 days' },
];

interface Props {
  snapshots: { id: string; name: string }[];
  /** Offer the example scenarios too (the snapshot's own page offers only it). */
  scenarios?: boolean;
}

export function ForkWorldForm({ snapshots, scenarios = true }: Props) {
  const trpc = useTRPC();
  const create = useMutation(trpc.worlds.createWorld.mutationOptions());
  const [source, setSource] = useState('');
  const [ttl, setTtl] = useState('PT1H');
  // A snapshot deleted meanwhile is no longer a choice: fall back to the first one (or an example).
  const known = source.startsWith('scenario:') || snapshots.some((snapshot) => `snapshot:${snapshot.id}` === source);
  const chosen = known ? source : snapshots[0] ? `snapshot:${snapshots[0].id}` : 'scenario:family';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const [kind, value = ''] = chosen.split(':');
    create.mutate(kind === 'snapshot' ? { snapshotId: value, ttl } : { scenario: EXAMPLES[value] as never, ttl });
  };
  return (
    <>
      <form className="row" onSubmit={submit} aria-label="Fork a child world">
        <label className="field">
          <span>From</span>
          <select value={chosen} onChange={(e) => setSource(e.target.value)}>
            {snapshots.length > 0 && (
              <optgroup label="Snapshots">
                {snapshots.map((snapshot) => (
                  <option key={snapshot.id} value={`snapshot:${snapshot.id}`}>
                    {snapshot.name}
                  </option>
                ))}
              </optgroup>
            )}
            {scenarios && (
              <optgroup label="Example scenarios">
                {Object.keys(EXAMPLES).map((name) => (
                  <option key={name} value={`scenario:${name}`}>
                    {name} (scenario)
                  </option>
                ))}
              </optgroup>
            )}
          </select>
        </label>
        <label className="field">
          <span>Lives for (real time)</span>
          <select value={ttl} onChange={(e) => setTtl(e.target.value)}>
            {TTLS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create world'}
        </button>
      </form>
      <ErrorNote error={create.error} />
      {create.data && <WorldCredentials created={create.data.data} />}
    </>
  );
}
