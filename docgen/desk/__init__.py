"""The clerk's desk: a web page over docgen's library and register (``docgen serve``)."""
