// When a picture goes to the share sheet and when it is downloaded.
import assert from "node:assert/strict";
import {test} from "node:test";

import {afterFailure, shareWay} from "../../static/js/core/share-file.js";

const picture = new File(["png"], "rummy.png", {type: "image/png"});

test("the share sheet only where the browser says it takes the file", () => {
  const share = () => Promise.resolve();
  assert.equal(shareWay({canShare: () => true, share}, picture), "share");
  assert.equal(shareWay({canShare: () => false, share}, picture), "download");
  /** @type {unknown} */
  let asked;
  shareWay({canShare: (data) => { asked = data; return true; }, share}, picture);
  assert.deepEqual(asked, {files: [picture]});
});

test("no Web Share, or none for files, or a question that throws: downloaded", () => {
  assert.equal(shareWay({}, picture), "download");
  assert.equal(shareWay({share: () => Promise.resolve()}, picture), "download");
  assert.equal(shareWay({canShare: () => true}, picture), "download");
  const throwing = () => { throw new TypeError("files not supported"); };
  assert.equal(shareWay({canShare: throwing, share: () => Promise.resolve()}, picture), "download");
});

test("a sheet closed is nothing to say; any other failure downloads", () => {
  assert.equal(afterFailure(new DOMException("closed", "AbortError")), "closed");
  assert.equal(afterFailure(new DOMException("no activation", "NotAllowedError")), "download");
  assert.equal(afterFailure(new Error("500")), "download");
  assert.equal(afterFailure("odd"), "download");
});
