import { useId } from 'react';
import type { PackageView } from '../../../contract/subscriptions';
import type { SubscriptionErrors, SubscriptionField, SubscriptionValues } from '../../../machines/subscription-rules';
import { cx } from '../../ui/cx';
import { fieldStyles } from '../../ui/field-styles';
import { Select } from '../../ui/select';

/** A package's name on screen: its type capitalised ('premium' -> 'Premium'). */
export const packageLabel = (type: string) => type.charAt(0).toUpperCase() + type.slice(1);

export interface SubscriptionFieldsProps {
  /** The five values as typed (see machines/subscription-rules.ts: defaultSubscriptionValues gives the defaults). */
  values: SubscriptionValues;
  /** Messages to show, per field, and `overlap` (shown under the dates as an alert). Pass only those to show now. */
  errors: SubscriptionErrors;
  /** The packages to choose from (GET /packages/). */
  packages: readonly PackageView[];
  /** One field changed: its new text (packageId: the chosen id, '' when cleared). */
  onChange(field: SubscriptionField, value: string): void;
  isDisabled?: boolean;
}

/**
 * The five inputs of a subscription: Package, Maximum Users, Fair Use, Start Date and Expiry Date (datetime-local),
 * as Create New Subscription and Register New Client's 'Subscription Information' section show them. Stateless: the
 * caller's machine holds the values and decides which errors show (validateSubscription, overlapError).
 */
export function SubscriptionFields({ values, errors, packages, onChange, isDisabled }: SubscriptionFieldsProps) {
  return (
    <div className="space-y-4">
      <Select
        label="Package"
        placeholder="Select a package"
        items={packages.map((p) => ({ id: p.id, label: packageLabel(p.type) }))}
        selectedKey={values.packageId || null}
        onSelectionChange={(key) => onChange('packageId', key ?? '')}
        isRequired
        isDisabled={isDisabled}
        errorMessage={errors.packageId}
      />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <NativeField
          label="Maximum Users"
          type="number"
          value={values.maxUsers}
          onChange={(v) => onChange('maxUsers', v)}
          error={errors.maxUsers}
          isDisabled={isDisabled}
        />
        <NativeField
          label="Fair Use"
          type="number"
          value={values.fairUse}
          onChange={(v) => onChange('fairUse', v)}
          error={errors.fairUse}
          isDisabled={isDisabled}
          description="Millions of tokens per user per month."
        />
        <NativeField
          label="Start Date"
          type="datetime-local"
          value={values.startDate}
          onChange={(v) => onChange('startDate', v)}
          error={errors.startDate}
          isDisabled={isDisabled}
        />
        <NativeField
          label="Expiry Date"
          type="datetime-local"
          value={values.expiryDate}
          onChange={(v) => onChange('expiryDate', v)}
          error={errors.expiryDate}
          isDisabled={isDisabled}
        />
      </div>
      <div aria-live="polite">
        {errors.overlap && (
          <p
            role="alert"
            className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
          >
            {errors.overlap}
          </p>
        )}
      </div>
    </div>
  );
}

/** A labelled native input (number and datetime-local, which the react-aria text field does not offer). */
function NativeField(props: {
  label: string;
  type: 'number' | 'datetime-local';
  value: string;
  onChange(value: string): void;
  error?: string;
  description?: string;
  isDisabled?: boolean;
}) {
  const id = useId();
  const describedBy = props.error ? `${id}-error` : props.description ? `${id}-description` : undefined;
  return (
    <div className={fieldStyles.root}>
      <label htmlFor={id} className={fieldStyles.label}>
        {props.label}
        <span aria-hidden="true" className={fieldStyles.required}>
          *
        </span>
      </label>
      <input
        id={id}
        type={props.type}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        required
        disabled={props.isDisabled}
        min={props.type === 'number' ? 1 : undefined}
        step={props.type === 'number' ? 1 : undefined}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy}
        data-invalid={props.error ? '' : undefined}
        data-disabled={props.isDisabled ? '' : undefined}
        className={cx(fieldStyles.control, 'h-10 dark:[color-scheme:dark]')}
      />
      {props.description && !props.error && (
        <p id={`${id}-description`} className={fieldStyles.description}>
          {props.description}
        </p>
      )}
      {props.error && (
        <p id={`${id}-error`} className={fieldStyles.error}>
          {props.error}
        </p>
      )}
    </div>
  );
}
