// Copy button of the exemplar page: the raw script (not the highlighted HTML) goes to the clipboard.
document.getElementById("copy")?.addEventListener("click", async (ev) => {
  const text = document.getElementById("code-raw").value;
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = document.getElementById("code-raw");
    area.hidden = false; area.select(); document.execCommand("copy"); area.hidden = true;
  }
  ev.target.textContent = "Copied";
  setTimeout(() => { ev.target.textContent = "Copy"; }, 1500);
});
