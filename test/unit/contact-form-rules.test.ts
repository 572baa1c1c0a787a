import { describe, expect, it } from 'vitest';
import {
  contactFieldErrors,
  FIELD_REQUIRED,
  INVALID_EMAIL,
  INVALID_PHONE,
  isMalaysianPhone,
  isStaffEmail,
  NAME_REQUIRED,
  normalisedPhone,
  PHONE_OR_EMAIL_REQUIRED,
} from '../../shared/contact-form-rules';

// The rules the landing page's form and the server both apply (administration spec section 5).
describe('contact form rules', () => {
  it.each([
    // Mobile: 01x then 7 to 8 digits, with +60 / 60 / 0.
    ['0123456789', true],
    ['01123456789', true],
    ['+60123456789', true],
    ['60123456789', true],
    ['(012) 345-6789', true],
    ['012 345 6789', true],
    // Landline: 3 to 9 then 7 to 8 digits.
    ['0312345678', true],
    ['+6082123456', true],
    ['09-123 4567', true],
    // Not Malaysian, too short, too long, or not a number.
    ['0212345678', false],
    ['01234567', false],
    ['012345678901', false],
    ['+6512345678', false],
    ['12345678', false],
    ['012-abc-6789', false],
    ['', false],
  ])('%j is a Malaysian number: %s', (phone, expected) => {
    expect(isMalaysianPhone(phone)).toBe(expected);
  });

  it('strips spaces, dashes and brackets', () => {
    expect(normalisedPhone(' (03) 1234-5678 ')).toBe('0312345678');
  });

  it('knows the staff domain and its subdomains, nothing merely ending alike', () => {
    expect(isStaffEmail('amir@tanya.my', 'tanya.my')).toBe(true);
    expect(isStaffEmail('Amir@Sales.Tanya.MY', 'tanya.my')).toBe(true);
    expect(isStaffEmail('amir@nottanya.my', 'tanya.my')).toBe(false);
    expect(isStaffEmail('tanya.my@example.com', 'tanya.my')).toBe(false);
  });

  it('gives each field its sentence, the phone-or-e-mail one on both', () => {
    expect(contactFieldErrors({ name: '', phone: '', email: '', hearAboutUs: '' })).toEqual({
      name: NAME_REQUIRED,
      phone: PHONE_OR_EMAIL_REQUIRED,
      email: PHONE_OR_EMAIL_REQUIRED,
      hearAboutUs: FIELD_REQUIRED,
    });
    expect(contactFieldErrors({ name: 'A', phone: '123', email: 'x@', hearAboutUs: 'search' })).toEqual({ phone: INVALID_PHONE, email: INVALID_EMAIL });
    expect(contactFieldErrors({ name: 'A', phone: '', email: 'a@b.co', hearAboutUs: 'staff' })).toEqual({});
  });
});
