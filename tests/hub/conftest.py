def pytest_configure(config):
    config.addinivalue_line("markers", "hub: runs a real JupyterHub with Unix accounts (root; slow)")
