// A picture whose smallest text is drawn under 12 px (on a phone, most of the course's) gets a visible
// "Full size" button under it; the button opens the picture at its own size in a dialog that scrolls, closed
// with its button, Esc or a tap outside. img[data-font-px] carries the picture's smallest text at natural size
// (paddlecourse/widgets/figures.py). The buttons follow the window's width as it changes.
(() => {
  const READABLE_PX = 12;
  const zh = (document.documentElement.lang || "").startsWith("zh");
  const words = zh ? {open: "查看原图", close: "关闭", title: "原尺寸图片"}
                   : {open: "Full size", close: "Close", title: "Picture at full size"};
  let dialog = null;

  function theDialog() {
    if (dialog) return dialog;
    dialog = document.createElement("dialog");
    dialog.className = "pc-enlarged";
    dialog.setAttribute("aria-label", words.title);
    const close = document.createElement("button");
    close.type = "button";
    close.className = "pc-enlarged-close";
    close.textContent = words.close;
    close.addEventListener("click", () => dialog.close());
    const frame = document.createElement("div");
    frame.className = "pc-enlarged-frame";
    dialog.append(close, frame);
    dialog.addEventListener("click", event => { if (event.target === dialog) dialog.close(); });
    document.body.append(dialog);
    return dialog;
  }

  function open(img) {
    const box = theDialog();
    const copy = img.cloneNode();
    copy.removeAttribute("width");
    copy.removeAttribute("height");
    copy.style.width = img.naturalWidth + "px";
    copy.style.maxWidth = "none";
    copy.style.height = "auto";
    box.querySelector(".pc-enlarged-frame").replaceChildren(copy);
    box.showModal();
  }

  function drawnTextPx(img) {
    const width = img.getBoundingClientRect().width;
    return img.naturalWidth ? parseFloat(img.dataset.fontPx) * width / img.naturalWidth : Infinity;
  }

  function update() {
    for (const img of document.querySelectorAll("img[data-font-px]")) {
      let button = img.pcEnlarge;
      const small = drawnTextPx(img) < READABLE_PX;
      if (small && !button) {
        button = document.createElement("button");
        button.type = "button";
        button.className = "pc-enlarge";
        button.textContent = words.open;
        button.setAttribute("aria-label", `${words.open}: ${img.alt || ""}`.trim());
        button.addEventListener("click", () => open(img));
        const card = img.closest(".pc-picture-card") || img;
        card.after(button);
        img.pcEnlarge = button;
      }
      if (button) button.hidden = !small;
    }
    document.documentElement.dataset.pcEnlargeWidth = String(window.innerWidth);   // for the tests: done at this width
  }

  function whenLoaded() {
    const pending = [...document.querySelectorAll("img[data-font-px]")].filter(img => !img.complete);
    Promise.all(pending.map(img => new Promise(done => { img.addEventListener("load", done, {once: true});
                                                         img.addEventListener("error", done, {once: true}); })))
      .then(update);
  }

  let timer = null;
  window.addEventListener("resize", () => { clearTimeout(timer); timer = setTimeout(update, 150); });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", whenLoaded);
  else whenLoaded();
})();
