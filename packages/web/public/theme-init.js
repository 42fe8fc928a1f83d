// Applies the theme chosen in the dashboard ("light" or "dark"; absent: follow the system)
// before the first paint, so a dark-mode user never sees a white flash.
(function () {
  try {
    var theme = window.localStorage.getItem("sightline.theme");
    if (theme === "light" || theme === "dark") document.documentElement.setAttribute("data-theme", theme);
  } catch {
    // Storage may be unavailable (private mode); the system theme applies.
  }
})();
