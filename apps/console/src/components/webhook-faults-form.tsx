/**
 * The webhook lab's form (docs/guides/webhooks.md): one fieldset per fault kind, switched on by its
 * checkbox; checked as the API checks (lib/webhook-faults.ts) before it is sent. “Turn faults off”
 * saves null.
 */
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, type InputHTMLAttributes, type ReactNode, useId, useState } from 'react';
import { useTRPC } from '../lib/trpc.ts';
import type { Webhook } from '../lib/types.ts';
import { FAULT_LIMITS, type FaultErrors, type FaultsForm, faultsToForm, formToFaults } from '../lib/webhook-faults.ts';
import { ErrorNote } from './error-note.tsx';

type Kind = Exclude<keyof FaultsForm, 'seed'>;

export function WebhookFaultsForm({ webhook }: { webhook: Webhook }) {
  const trpc = useTRPC();
  const [form, setForm] = useState(() => faultsToForm(webhook.faults));
  const [errors, setErrors] = useState<FaultErrors>({});
  const [saved, setSaved] = useState('');
  const save = useMutation(
    trpc.webhooks.patchWebhook.mutationOptions({
      onSuccess: (result) => {
        setForm(faultsToForm(result.data.faults));
        setSaved(
          result.data.faults ? 'Faults saved: the next deliveries carry them.' : 'Faults off: deliveries are sent as they are.',
        );
      },
    }),
  );
  const set = <K extends Kind>(kind: K, changes: Partial<FaultsForm[K]>) => {
    setSaved('');
    setForm((current) => ({ ...current, [kind]: { ...current[kind], ...changes } }));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = formToFaults(form);
    setErrors(checked.errors);
    if (Object.keys(checked.errors).length > 0) return;
    save.mutate({ id: webhook.id, faults: checked.faults });
  };
  const turnOff = () => {
    setErrors({});
    save.mutate({ id: webhook.id, faults: null });
  };
  const fieldProps = { errors, disabled: save.isPending };
  const invalid = Object.keys(errors).length;

  return (
    <form className="stack faults-form" onSubmit={submit} noValidate>
      <div className="fault-sets">
        <FaultSet
          legend="Failures"
          hint="Counted as failed whatever the receiver answers, so the event is retried"
          on={form.failure.on}
          onToggle={(on) => set('failure', { on })}
        >
          <RateField
            path="failure.rate"
            value={form.failure.rate}
            onChange={(rate) => set('failure', { rate })}
            {...fieldProps}
          />
          <label className="field">
            <span>Counted as</span>
            <select
              value={form.failure.counted}
              onChange={(e) => set('failure', { counted: e.target.value as 'status' | 'timeout' })}
            >
              <option value="status">An HTTP status</option>
              <option value="timeout">A timeout</option>
            </select>
          </label>
          {form.failure.counted === 'status' && (
            <NumberField
              label="Status (400–599, not 410)"
              path="failure.status"
              min={400}
              max={599}
              value={form.failure.status}
              onChange={(status) => set('failure', { status })}
              {...fieldProps}
            />
          )}
        </FaultSet>
        <FaultSet
          legend="Latency"
          hint="A pause before the request"
          on={form.latency.on}
          onToggle={(on) => set('latency', { on })}
        >
          <RateField
            path="latency.rate"
            value={form.latency.rate}
            onChange={(rate) => set('latency', { rate })}
            {...fieldProps}
          />
          <NumberField
            label={`Pause (ms, up to ${FAULT_LIMITS.latencyMs})`}
            path="latency.ms"
            min={1}
            max={FAULT_LIMITS.latencyMs}
            value={form.latency.ms}
            onChange={(ms) => set('latency', { ms })}
            {...fieldProps}
          />
        </FaultSet>
        <FaultSet
          legend="Duplicates"
          hint="The request sent twice: same body, same webhook-id"
          on={form.duplicate.on}
          onToggle={(on) => set('duplicate', { on })}
        >
          <RateField
            path="duplicate.rate"
            value={form.duplicate.rate}
            onChange={(rate) => set('duplicate', { rate })}
            {...fieldProps}
          />
        </FaultSet>
        <FaultSet
          legend="Out of order"
          hint="A first attempt held back, so events arrive out of order"
          on={form.reorder.on}
          onToggle={(on) => set('reorder', { on })}
        >
          <RateField
            path="reorder.rate"
            value={form.reorder.rate}
            onChange={(rate) => set('reorder', { rate })}
            {...fieldProps}
          />
          <NumberField
            label={`Window (ms, up to ${FAULT_LIMITS.reorderWindowMs})`}
            path="reorder.windowMs"
            min={1}
            max={FAULT_LIMITS.reorderWindowMs}
            value={form.reorder.windowMs}
            onChange={(windowMs) => set('reorder', { windowMs })}
            {...fieldProps}
          />
        </FaultSet>
        <FaultSet
          legend="Stale timestamp"
          hint="Signed with an old webhook-timestamp: a Standard Webhooks receiver must refuse it"
          on={form.staleTimestamp.on}
          onToggle={(on) => set('staleTimestamp', { on })}
        >
          <RateField
            path="staleTimestamp.rate"
            value={form.staleTimestamp.rate}
            onChange={(rate) => set('staleTimestamp', { rate })}
            {...fieldProps}
          />
          <NumberField
            label={`Age (s, 301–${FAULT_LIMITS.staleSeconds})`}
            path="staleTimestamp.ageSeconds"
            min={301}
            max={FAULT_LIMITS.staleSeconds}
            value={form.staleTimestamp.ageSeconds}
            onChange={(ageSeconds) => set('staleTimestamp', { ageSeconds })}
            {...fieldProps}
          />
        </FaultSet>
      </div>
      <TextField
        label="Seed (optional: the same seed hits the same events)"
        path="seed"
        value={form.seed}
        onChange={(seed) => {
          setSaved('');
          setForm((current) => ({ ...current, seed }));
        }}
        {...fieldProps}
      />
      {invalid > 0 && (
        <p className="note error" role="alert">
          {invalid === 1 ? 'One field needs' : `${invalid} fields need`} a fix before the faults can be saved.
        </p>
      )}
      <ErrorNote error={save.error} />
      {saved && (
        <p className="note success" role="status">
          {saved}
        </p>
      )}
      <div className="row">
        <button type="submit" disabled={save.isPending}>
          Save faults
        </button>
        <button type="button" className="secondary" disabled={save.isPending || webhook.faults === null} onClick={turnOff}>
          Turn faults off
        </button>
      </div>
    </form>
  );
}

function FaultSet(props: { legend: string; hint: string; on: boolean; onToggle: (on: boolean) => void; children: ReactNode }) {
  return (
    <fieldset className="fault-set">
      <legend>
        <label>
          <input type="checkbox" checked={props.on} onChange={(e) => props.onToggle(e.target.checked)} /> {props.legend}
        </label>
      </legend>
      <p className="muted">{props.hint}</p>
      {props.on && <div className="row">{props.children}</div>}
    </fieldset>
  );
}

interface FieldProps {
  path: string;
  value: string;
  onChange: (value: string) => void;
  errors: FaultErrors;
  disabled: boolean;
}

/** An input with its label and, when the check failed, its error (announced with the field). */
function FaultInput({ label, input, ...props }: FieldProps & { label: string; input: InputHTMLAttributes<HTMLInputElement> }) {
  const errorId = useId();
  const error = props.errors[props.path];
  return (
    <label className="field">
      <span>{label}</span>
      <input
        {...input}
        value={props.value}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      />
      {error && (
        <small id={errorId} className="field-error">
          {error}
        </small>
      )}
    </label>
  );
}

function NumberField({ min, max, ...props }: FieldProps & { label: string; min: number; max: number }) {
  return <FaultInput {...props} input={{ type: 'number', inputMode: 'numeric', min, max, step: 1 }} />;
}

function RateField(props: FieldProps) {
  return (
    <FaultInput
      {...props}
      label="Share of attempts (%)"
      input={{ type: 'number', inputMode: 'decimal', min: 0, max: 100, step: 'any' }}
    />
  );
}

function TextField(props: FieldProps & { label: string }) {
  return <FaultInput {...props} input={{ className: 'mono', maxLength: 64 }} />;
}
