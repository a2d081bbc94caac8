// The narration site's script (bundled by scripts/build-site.ts).
document.documentElement.classList.add('js');
