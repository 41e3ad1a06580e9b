# ruff: noqa: E501 (check scripts are data: long lines keep exact JAX messages whole)
"""S1 (spec/sharding.md): virtual CPU devices, their attributes, and the device count's
precedence and "set after first use" error. Each check runs in a fresh interpreter."""

from tests.sharding._subproc import run


def test_S1_devices_attributes_and_process_model():
    run(
        """
        devs = jax.devices()
        assert len(devs) == 8 and jax.device_count() == 8                      # S1.2
        assert jax.devices() is not devs and all(a is b for a, b in zip(devs, jax.devices()))  # S16.8
        assert jax.devices("cpu") == devs
        assert jax.local_devices() == devs and jax.local_device_count() == 8
        assert jax.local_devices(process_index=0) == devs
        raises(ValueError, "Unknown process_index 1", jax.local_devices, process_index=1)
        assert jax.process_index() == 0 and jax.process_count() == 1
        assert jax.default_backend() == "cpu"
        d = devs[3]                                                             # S1.3
        assert repr(d) == "CpuDevice(id=3)" and str(d) == "cpu:3"
        assert (d.id, d.platform, d.device_kind) == (3, "cpu", "cpu")
        assert (d.process_index, d.host_id, d.task_id, d.local_hardware_id) == (0, 0, 0, 3)
        assert isinstance(d, jax.Device)
        assert len({d, devs[3], devs[2]}) == 2
        # Set after first use: refused, and the count stays (S1.1); the same value is fine.
        raises(RuntimeError, "jax_num_cpu_devices config should be updated before backends "
               "are initialized i.e. before any JAX operation is executed. You should "
               "initialize this config immediately after `import jax`.",
               jax.config.update, "jax_num_cpu_devices", 2)
        assert jax.device_count() == 8
        jax.config.update("jax_num_cpu_devices", 8)
        """
    )


def test_S1_xla_flags_and_precedence():
    out = run(
        "print(jax.device_count())",
        n_devices=None,
        env={"XLA_FLAGS": "--xla_force_host_platform_device_count=4"},
    )
    assert out.split() == ["4"]
    # jax_num_cpu_devices wins over XLA_FLAGS (S1.1).
    out = run(
        "print(jax.device_count())",
        n_devices=2,
        env={"XLA_FLAGS": "--xla_force_host_platform_device_count=4"},
    )
    assert out.split() == ["2"]
    out = run("print(jax.device_count())", n_devices=None)
    assert out.split() == ["1"]


def test_S1_count_fixed_by_first_computation():
    run(
        """
        x = jnp.ones(3) + 1
        raises(RuntimeError, "before backends are initialized",
               jax.config.update, "jax_num_cpu_devices", 4)
        assert jax.device_count() == 1
        """,
        n_devices=None,
    )
