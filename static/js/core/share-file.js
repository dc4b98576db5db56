// Whether a picture goes to the phone's share sheet (Web Share with a file)
// or is downloaded: the share sheet only where the browser says it takes
// files of that kind (navigator.canShare), else the link's own download.

/**
 * @typedef {{canShare?: (data: {files: File[]}) => boolean, share?: unknown}} Sharing
 */

/**
 * "share" where `nav` can share `file`, else "download" (no Web Share, none
 * for files, or a browser that throws on the question).
 * @param {Sharing} nav
 * @param {File} file
 * @returns {"share" | "download"}
 */
export function shareWay(nav, file) {
  if (typeof nav.canShare !== "function" || typeof nav.share !== "function") return "download";
  try {
    return nav.canShare({files: [file]}) ? "share" : "download";
  } catch {
    return "download";
  }
}

/**
 * What a failed share means: nothing to say if the person closed the sheet,
 * else the picture is downloaded instead.
 * @param {unknown} error
 * @returns {"closed" | "download"}
 */
export function afterFailure(error) {
  return error instanceof Error && error.name === "AbortError" ? "closed" : "download";
}
