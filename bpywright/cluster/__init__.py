"""Scale-out: the same warm, sandboxed Blender workers as Ray actors (RayPool), chosen by --cluster / BPYWRIGHT_CLUSTER."""
