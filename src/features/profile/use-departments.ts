import { useOrganisationDepartments } from '../../lib/use-organisation-departments';
import { toast } from '../../ui/toast';

/** The organisation's departments with their units, for the Profile selects. */
export function useDepartments() {
  return useOrganisationDepartments(() => toast.error('Failed to load profile data'));
}
