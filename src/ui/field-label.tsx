import type { ReactNode } from 'react';
import { Label } from 'react-aria-components/Label';
import { fieldStyles } from './field-styles';

/** A field label; required fields get a red asterisk that screen readers skip (the input says required). */
export function FieldLabel({ children, isRequired }: { children: ReactNode; isRequired?: boolean }) {
  return (
    <Label className={fieldStyles.label}>
      {children}
      {isRequired && (
        <span aria-hidden="true" className={fieldStyles.required}>
          *
        </span>
      )}
    </Label>
  );
}
