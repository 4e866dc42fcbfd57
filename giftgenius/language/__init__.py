"""Reading what people type, in English and French: the readers tools and the offline model share.

One folding rule (``folding``), the language of a message (``detect``), who a gift is for
(``relations``), where it goes (``places``), money (``amounts``, ``currency``), when it must
arrive (``when``), materials and the catalog's words (``materials``, ``vocabulary``). This
layer sits under the catalog and above the bottom utilities: it knows words, never products,
stores or models.
"""
