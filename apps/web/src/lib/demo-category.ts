// A demo's category in the interface language. Categories the project's own demos use have a
// translation; others (published by an administrator) are shown as written.
import { useTranslation } from 'react-i18next';

export function useCategoryLabel(): (category: string) => string {
  const { t, i18n } = useTranslation();
  return (category) => {
    const key = `demos.categories.${category.trim().toLowerCase().replace(/\s+/g, '_')}`;
    return i18n.exists(key) ? t(key as 'demos.title') : category;
  };
}
