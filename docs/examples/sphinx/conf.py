# A Sphinx site with normlab figures (built by tests/package/sphinx.test.mjs with
# Debian's python3-sphinx 5.3 and furo). Copy the package's web/ and dist/
# folders into _static/normlab/ (see README, "Docs sites"); Sphinx writes each
# page's links relative to it, so the site may live under any sub-path.
project = 'normlab in Sphinx'
html_theme = 'furo'
html_static_path = ['_static']
# A module script (Sphinx 5 writes the attributes given here on the tag).
html_js_files = [('normlab-sphinx.js', {'type': 'module'})]
# Reserves each figure's height before it draws, so nothing moves when it does.
html_css_files = ['normlab/web/styles/normlab.css']
