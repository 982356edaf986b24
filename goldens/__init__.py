"""Golden images of the renderers: the samples the tests compare against, and the tool that
rewrites them (`python -m goldens --update --docs`). Not shipped with the product.
"""
