// Submit page: POST a generate or validate job, then follow its Server-Sent Events until the result arrives.
const $ = (id) => document.getElementById(id);

function reset(jobLabel) {
  $("progress-panel").hidden = false;
  $("progress-panel").scrollIntoView();
  $("events").innerHTML = "";
  $("result").dataset.state = "running";
  $("result-summary").textContent = jobLabel;
  for (const id of ["result-render", "result-script"]) $(id).hidden = true;
  $("result-lint").innerHTML = "";
  $("result-link").innerHTML = "";
}

function line(text, cls) {
  const li = document.createElement("li");
  li.textContent = text;
  if (cls) li.className = cls;
  $("events").appendChild(li);
}

function showResult(view) {
  const box = $("result");
  box.dataset.state = view.state;
  if (view.state === "failed" || !view.result) {
    $("result-summary").textContent = "failed: " + (view.error || "no result");
    return;
  }
  const r = view.result;
  let summary, script = null, lint = null;
  if (view.kind === "validate") {
    summary = r.ok ? "ok: the script ran cleanly" : r.run.status + (r.run.exception ? ": " + r.run.exception.type + ": " + r.run.exception.message + (r.run.exception.line ? " (line " + r.run.exception.line + ")" : "") : "");
    lint = r.lint;
    if (r.exemplar_id) $("result-link").innerHTML = 'In the gallery: <a href="/exemplars/' + r.exemplar_id + '">' + r.exemplar_id + "</a>";
  } else if (view.kind === "generate") {
    summary = r.message && r.message.startsWith(r.outcome) ? r.message : r.outcome + (r.message ? ": " + r.message : "");
    script = r.script; lint = r.lint_report;
  } else {
    summary = r.healed ? "healed" : "not healed: " + r.status_after;
    script = r.script;
  }
  box.dataset.status = view.kind === "validate" ? r.run.status : (r.outcome || r.status_after || "");
  $("result-summary").textContent = summary;
  if (view.render_url) { $("result-render").src = view.render_url; $("result-render").hidden = false; }
  if (script) { $("result-script").textContent = script; $("result-script").hidden = false; }
  for (const d of (lint && lint.diagnostics) || []) {
    const li = document.createElement("li");
    li.className = d.severity;
    li.textContent = "line " + d.line + ": " + d.tool + " " + d.code + " " + d.message;
    $("result-lint").appendChild(li);
  }
}

async function start(url, body) {
  reset("submitting…");
  let answer, data;
  try {
    answer = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    data = await answer.json();
  } catch (err) {
    $("result").dataset.state = "failed";
    $("result-summary").textContent = "request failed: " + err;
    return;
  }
  if (answer.status !== 202) {
    $("result").dataset.state = "refused";
    const retry = answer.headers.get("Retry-After");
    $("result-summary").textContent = "refused (" + answer.status + "): " + (data.reason || data.detail) + (retry ? " — retry in " + retry + " s" : "");
    return;
  }
  $("job-id").textContent = data.kind + " " + data.job_id;
  $("result-summary").textContent = "queued";
  const source = new EventSource(data.events_url);
  source.addEventListener("progress", (ev) => {
    const e = JSON.parse(ev.data);
    line(e.elapsed_s.toFixed(1) + " s  " + e.node + (e.status ? ": " + e.status : "") + (e.detail ? " — " + e.detail : ""));
    $("result-summary").textContent = e.node + "…";
  });
  source.addEventListener("result", (ev) => { source.close(); showResult(JSON.parse(ev.data)); });
  source.onerror = () => { if (source.readyState === EventSource.CLOSED) line("connection closed", "bad"); };
}

$("prompt-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const f = ev.target;
  start("/api/v1/generate", { prompt: f.prompt.value, blender_version: f.blender_version.value || "4.5" });
});

$("script-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const f = ev.target;
  start("/api/v1/validate", { script: f.script.value, prompt: f.prompt.value, lint: f.lint.checked, add_to_gallery: f.add_to_gallery.checked, wait: false });
});
