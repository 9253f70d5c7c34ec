// Scripted scrolling follows the same rule as the CSS: no smooth motion when the system asks for reduced
// motion or the account turned animations off (data-motion on <html>, set from the preferences).
export function scrollBehavior(): ScrollBehavior {
  if (document.documentElement.dataset.motion === 'reduce') return 'auto';
  if (
    typeof window.matchMedia === 'function' &&
    window.matchMedia('(prefers-reduced-motion: reduce)').matches
  )
    return 'auto';
  return 'smooth';
}
