"""How the desk is served: its connections and what one client may hold of it
(connections, limits), the rendering processes the pages' heavy work runs in
(renderers), and systemd's watchdog (watchdog).
"""
