/* docgen desk: the few behaviours htmx does not give. No inline script anywhere (CSP). */
(function () {
  "use strict";

  function focusable(target) {
    if (!target) return null;
    if (target.matches("input, select, textarea, button")) return target;
    return target.querySelector("input:not([type=hidden]), select, textarea") || target;
  }

  // After a row is added or removed, focus goes to that row; after a submit, to the first
  // field in error (or the summary).
  function focusFirstError() {
    var form = document.getElementById("draft-form");
    var summary = document.getElementById("error-summary");
    var named = location.hash && document.getElementById(location.hash.slice(1));
    if (form && named) {
      focusable(named).focus();
      return;
    }
    if (!form || !summary) return;
    var submitted = form.querySelector("input[name=_submitted]");
    if (!submitted || submitted.value !== "1") return;
    var first = focusable(form.querySelector("[aria-invalid=true], fieldset.invalid"));
    (first || summary).focus();
  }

  // The names of the fields left so far: live checks show only their errors until a submit.
  document.addEventListener("focusout", function (event) {
    var target = event.target;
    var form = document.getElementById("draft-form");
    if (!form || !target.name || target.form !== form || target.name.charAt(0) === "_") return;
    var visited = form.querySelector("input[name=_visited]");
    var names = visited.value ? visited.value.split(" ") : [];
    if (names.indexOf(target.name) < 0) names.push(target.name);
    visited.value = names.join(" ");
  }, true);

  // Summary links move focus to the field they name.
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("#error-summary a[href^='#']");
    if (!link) return;
    var target = focusable(document.getElementById(link.getAttribute("href").slice(1)));
    if (target) {
      event.preventDefault();
      target.focus();
      target.scrollIntoView({block: "center"});
    }
  });

  // Errors swapped in beside the fields: keep aria-invalid in step with them.
  document.addEventListener("htmx:afterSettle", function () {
    document.querySelectorAll("span.error[id$='-error']").forEach(function (span) {
      var control = document.getElementById(span.id.slice(0, -6));
      if (!control) return;
      var invalid = span.textContent.trim() !== "";
      if (invalid) control.setAttribute("aria-invalid", "true");
      else control.removeAttribute("aria-invalid");
    });
  });

  // A method of service chosen unfolds what the affidavit states for it (certified mail:
  // the article number and the return receipt); nothing typed is folded away again.
  document.addEventListener("change", function (event) {
    var select = event.target;
    if (!select.matches || !select.matches("select[name=method]") || !select.form) return;
    select.form.querySelectorAll("details[data-method]").forEach(function (details) {
      // data-method: the methods it is for, separated by spaces
      if (details.getAttribute("data-method").split(" ").indexOf(select.value) >= 0) {
        details.open = true;
      }
    });
  });

  // On a phone a table's rows are stacked (desk.css): each cell is labelled with its
  // column's heading, which the stacked layout shows before the value.
  function labelCells() {
    document.querySelectorAll("table").forEach(function (table) {
      var heads = table.querySelectorAll("thead th");
      table.querySelectorAll("tbody tr").forEach(function (row) {
        Array.prototype.forEach.call(row.children, function (cell, i) {
          var head = heads[i] && heads[i].textContent.trim();
          if (head && !cell.hasAttribute("data-label")) cell.setAttribute("data-label", head);
        });
      });
    });
  }

  // A step refused for what it lacks asks its question beside the field it is about (a
  // document's page: the lifting's date, the order's service): focus goes there.
  function focusAsked() {
    var asked = document.querySelector("[data-asked]");
    if (!asked) return;
    asked.focus();
    asked.scrollIntoView({block: "center"});
  }

  function ready() {
    labelCells();
    focusFirstError();
    focusAsked();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", ready);
  } else {
    ready();
  }
})();
