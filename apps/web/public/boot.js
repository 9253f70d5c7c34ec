/* global window, document */
// Runs before the bundle so the first paint already has the stored theme and the interface direction.
// A separate file (not inline) so a strict Content-Security-Policy (script-src 'self') allows it.
(function () {
  try {
    var t = localStorage.getItem('theme');
    if (t !== 'dark' && t !== 'light') {
      t = window.matchMedia && window.matchMedia('(prefers-color-scheme: light)').matches ? 'light' : 'dark';
    }
    var l = localStorage.getItem('language');
    if (l !== 'ar' && l !== 'fr' && l !== 'en') l = 'ar';
    var h = document.documentElement;
    h.classList.toggle('dark', t === 'dark');
    h.lang = l;
    h.dir = l === 'ar' ? 'rtl' : 'ltr';
    var m = document.querySelector('meta[name="theme-color"]');
    if (m) m.setAttribute('content', t === 'dark' ? '#0B0E14' : '#F6F7FB');
  } catch {
    /* storage blocked: keep the defaults in index.html */
  }
})();
