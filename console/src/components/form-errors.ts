import { useState } from 'preact/hooks';
import { ApiError } from '../api';

/**
 * A form's errors as the API reports them: a 400 names the field in error.param and is shown at
 * that field; anything else (a 409 with no param, a network error) is shown above the form.
 */
export function useFormErrors(fields: readonly string[]) {
  const [byField, setByField] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string | null>(null);
  return {
    byField,
    general,
    clear() {
      setByField({});
      setGeneral(null);
    },
    show(error: unknown) {
      const apiError = error instanceof ApiError ? error : null;
      const field = apiError?.param?.split('.')[0];
      if (apiError && field && fields.includes(field)) {
        setByField({ [field]: apiError.message });
        setGeneral(null);
      } else {
        setByField({});
        setGeneral(apiError ? apiError.message : 'Something went wrong.');
      }
    },
  };
}

export const inputValue = (event: Event) => (event.target as HTMLInputElement).value;
