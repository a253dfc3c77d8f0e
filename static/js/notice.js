// Pages that only say something (no such table): their texts in the reader's language.

import { initI18n } from "./i18n.js";

initI18n()
  .catch((err) => console.error(err))
  .finally(() => { document.body.dataset.ready = "1"; });
