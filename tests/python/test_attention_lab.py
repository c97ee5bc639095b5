"""The notebook package without a browser: weights to the `given` field, the
figure's HTML, the options' messages. The figures themselves are checked in
the browsers (tests/web/notebook_figures.mjs).

    ATTENTION_LAB_FILES=<web build> PYTHONPATH=python:tests/python /usr/bin/python3 -m unittest test_attention_lab
"""
import base64
import gzip
import json
import re
import struct
import unittest

import numpy as np

import attention_lab
from attention_lab import _figure, _files, _weights


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


class Weights(unittest.TestCase):
    def test_shapes_become_rows_cols_queries_keys(self):
        rng = np.random.default_rng(1)
        one = softmax(rng.standard_normal((3, 4)))
        self.assertEqual(_weights.as_maps(one).shape, (1, 1, 3, 4))
        self.assertEqual(_weights.as_maps(np.stack([one, one])).shape, (1, 2, 3, 4))
        self.assertEqual(_weights.as_maps(np.zeros((2, 3, 3, 4))).shape, (2, 3, 3, 4))
        self.assertEqual(_weights.as_maps(one.tolist()).shape, (1, 1, 3, 4))

    def test_a_hugging_face_tuple_is_layers_by_heads_of_one_batch_item(self):
        rng = np.random.default_rng(2)
        layers = tuple(softmax(rng.standard_normal((2, 3, 5, 5))) for _ in range(4))
        maps = _weights.as_maps(layers, batch=1)
        self.assertEqual(maps.shape, (4, 3, 5, 5))
        np.testing.assert_array_equal(maps[2, 1], layers[2][1, 1])
        with self.assertRaisesRegex(ValueError, "batch=2, but the batch has 2"):
            _weights.as_maps(layers, batch=2)
        with self.assertRaisesRegex(ValueError, "differ in shape"):
            _weights.as_maps((layers[0], layers[1][:, :2]))

    def test_a_tensor_like_object_is_detached_and_read(self):
        class Tensor:  # what torch offers: detach(), cpu(), numpy()
            def __init__(self, a): self.a = a
            def detach(self): return self
            def cpu(self): return self
            def numpy(self): return self.a
        maps = _weights.as_maps(Tensor(np.eye(3)))
        np.testing.assert_array_equal(maps[0, 0], np.eye(3))

    def test_bad_shapes_and_values_say_what_is_wrong(self):
        with self.assertRaisesRegex(ValueError, r"shape \(2, 2, 2, 2, 2\)"):
            _weights.as_maps(np.zeros((2, 2, 2, 2, 2)))
        with self.assertRaisesRegex(ValueError, "not numbers"):
            _weights.as_maps([["a", "b"]])
        with self.assertRaisesRegex(ValueError, "at most 4,194,304"):
            _weights.given_field(np.zeros((1, 65, 256, 256)))

    def test_non_numbers_travel_as_the_strings_the_lab_reads(self):
        w = np.array([[np.nan, np.inf], [-np.inf, 0.25]])
        self.assertEqual(_weights.given_field(w)["weights"], [[[["NaN", "Infinity"], ["-Infinity", 0.25]]]])

    def test_numbers_keep_float32_precision_and_labels_are_strings(self):
        w = np.array([[1 / 3, 2 / 3], [0.1, 0.9]])
        given = _weights.given_field(w, tokens=[101, "猫"], titles=["h"])
        got = np.array(given["weights"][0][0])
        np.testing.assert_allclose(got, w, rtol=1e-6)
        self.assertEqual(given["tokens"], ["101", "猫"])
        self.assertEqual(given["titles"], ["h"])
        json.dumps(given, allow_nan=False)  # valid JSON: no NaN literals


class Html(unittest.TestCase):
    def setUp(self):
        _figure._settings.update(base_url=None, embed="every")
        _figure._carried.clear()

    def unpack(self, html):
        text = re.search(r'class="attention-lab-files" data-digest="[0-9a-f]+">([^<]+)</script>', html).group(1)
        raw = gzip.decompress(base64.b64decode(text))
        length = struct.unpack(">I", raw[:4])[0]
        return dict(json.loads(raw[4:4 + length]))

    def test_a_figure_carries_the_files_its_view_needs(self):
        english = self.unpack(attention_lab.figure(text="a cat", lang="en").html())
        self.assertIn("attention_web.wasm", english)
        self.assertNotIn("cjk.ttf.gz", english)  # English, ASCII: no CJK font
        self.assertNotIn("why.js", english)
        chinese = self.unpack(attention_lab.figure(text="我爱你").html())
        self.assertIn("cjk.ttf.gz", chinese)
        why = self.unpack(attention_lab.figure(view="why").html())
        self.assertIn("attention_why.wasm", why)
        import os
        self.assertEqual(english["attention_web.wasm"], os.path.getsize(os.path.join(_files.lab_dir(), "attention_web.wasm")))

    def test_the_state_reaches_the_script_and_cannot_end_it(self):
        html = attention_lab.figure(text="</script><b>x", height=300).html()
        call = re.search(r"AttentionLabNotebook\.show\((\{.*\})\);", html).group(1)
        options = json.loads(call.replace("<\\/", "</"))
        self.assertEqual(options["state"], {"text": "</script><b>x"})
        self.assertEqual(options["height"], 300)
        self.assertEqual(html.count("</script>"), 1 + html.count('class="attention-lab-files"'))

    def test_embed_once_carries_the_files_in_the_first_figure_only(self):
        attention_lab.configure(embed="once")
        first, second = attention_lab.figure(text="a").html(), attention_lab.figure(text="b").html()
        carries = lambda html: 'class="attention-lab-files"' in html  # noqa: E731
        self.assertTrue(carries(first))
        self.assertFalse(carries(second))
        attention_lab.configure(embed="every")
        self.assertTrue(carries(attention_lab.figure(text="c").html()))

    def test_base_url_carries_no_files(self):
        attention_lab.configure(base_url="https://book.example/lab")
        html = attention_lab.figure(view="given").html()
        self.assertFalse('class="attention-lab-files"' in html)
        self.assertTrue('"base": "https://book.example/lab/"' in html)

    def test_bad_options_say_what_is_wanted(self):
        with self.assertRaisesRegex(ValueError, "embed='sometimes'"):
            attention_lab.configure(embed="sometimes")
        with self.assertRaisesRegex(ValueError, "height=10"):
            attention_lab.figure(height=10)
        with self.assertRaisesRegex(ValueError, "height='big'"):
            attention_lab.figure(height="big")

    def test_outside_a_notebook_show_returns_the_figure(self):
        figure = attention_lab.show_heatmaps(np.eye(2), tokens=["a", "b"])
        self.assertEqual(figure.state["view"], "given")
        self.assertEqual(figure.state["given"]["weights"], [[[[1.0, 0.0], [0.0, 1.0]]]])


if __name__ == "__main__":
    unittest.main()
