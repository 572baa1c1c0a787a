import { FieldError } from 'react-aria-components/FieldError';
import { Text } from 'react-aria-components/Text';
import { TextArea as AriaTextArea } from 'react-aria-components/TextArea';
import { TextField as AriaTextField } from 'react-aria-components/TextField';
import { cx } from './cx';
import { FieldLabel } from './field-label';
import { fieldStyles } from './field-styles';

export interface TextAreaProps {
  label: string;
  name?: string;
  value?: string;
  defaultValue?: string;
  onChange?(value: string): void;
  placeholder?: string;
  isRequired?: boolean;
  isDisabled?: boolean;
  isReadOnly?: boolean;
  autoFocus?: boolean;
  /** Visible lines (default 4); the user can resize vertically. */
  rows?: number;
  maxLength?: number;
  description?: string;
  /** When set, the field is invalid and shows this message. */
  errorMessage?: string;
  className?: string;
}

export function TextArea({ label, description, errorMessage, placeholder, rows = 4, className, ...props }: TextAreaProps) {
  return (
    <AriaTextField
      {...props}
      isInvalid={!!errorMessage}
      validationBehavior="aria"
      className={cx(fieldStyles.root, className)}
    >
      <FieldLabel isRequired={props.isRequired}>{label}</FieldLabel>
      <AriaTextArea placeholder={placeholder} rows={rows} className={cx(fieldStyles.control, 'min-h-[50px] resize-y py-2')} />
      {description && !errorMessage && (
        <Text slot="description" className={fieldStyles.description}>
          {description}
        </Text>
      )}
      <FieldError className={fieldStyles.error}>{errorMessage}</FieldError>
    </AriaTextField>
  );
}
