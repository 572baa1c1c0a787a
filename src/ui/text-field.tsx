import { FieldError } from 'react-aria-components/FieldError';
import { Input } from 'react-aria-components/Input';
import { Text } from 'react-aria-components/Text';
import { TextField as AriaTextField } from 'react-aria-components/TextField';
import { cx } from './cx';
import { FieldLabel } from './field-label';
import { fieldStyles } from './field-styles';

export interface TextFieldProps {
  label: string;
  name?: string;
  type?: 'text' | 'email' | 'password' | 'search' | 'url' | 'tel';
  value?: string;
  defaultValue?: string;
  onChange?(value: string): void;
  placeholder?: string;
  isRequired?: boolean;
  isDisabled?: boolean;
  isReadOnly?: boolean;
  autoComplete?: string;
  autoFocus?: boolean;
  /** Help text under the field (hidden while an error is shown). */
  description?: string;
  /** When set, the field is invalid and shows this message. */
  errorMessage?: string;
  className?: string;
}

export function TextField({ label, description, errorMessage, placeholder, className, ...props }: TextFieldProps) {
  return (
    <AriaTextField
      {...props}
      isInvalid={!!errorMessage}
      validationBehavior="aria"
      className={cx(fieldStyles.root, className)}
    >
      <FieldLabel isRequired={props.isRequired}>{label}</FieldLabel>
      <Input placeholder={placeholder} className={cx(fieldStyles.control, 'h-10')} />
      {description && !errorMessage && (
        <Text slot="description" className={fieldStyles.description}>
          {description}
        </Text>
      )}
      <FieldError className={fieldStyles.error}>{errorMessage}</FieldError>
    </AriaTextField>
  );
}
